import type { Config } from '../config.js';
import { apiUrlOf } from '../compose-url.js';

/** Where a person opens what an alert is about, in the editor. */
export function editorLink(config: Config, path: string): string {
  return `${config.publicUrl ?? apiUrlOf(config)}/editor${path}`;
}

export const runLink = (config: Config, p: { agentId: string; campaignId: string; executionId: string }) =>
  editorLink(config, `/agents/${encodeURIComponent(p.agentId)}?campaignId=${encodeURIComponent(p.campaignId)}&run=${encodeURIComponent(p.executionId)}`);
