import type { CampaignRecord, ReadOptions, Store } from '../store/index.js';
import type { CreateCampaignBody, PatchCampaignBody } from '../../schemas/campaign.js';
import type { Services } from '../services.js';
import type { Actor } from './actor.js';
import { notFound } from './errors.js';
import { assertNotLastNumber } from './phone-numbers/numbers.js';
import { assertCampaignDialerSettings } from './power-dialer/windows.js';
import { campaignStopped, stopInBackground } from './power-dialer/dialer.js';
import { loadProject } from './projects.js';
import { applyTemplate, templateNamed } from './templates.js';

export async function loadCampaign(store: Store, actor: Actor, locationId: string, campaignId: string, opts?: ReadOptions): Promise<CampaignRecord> {
  const project = await loadProject(store, actor, locationId);
  const campaign = await store.campaigns.get(actor.agencyId, campaignId, opts);
  if (!campaign || campaign.projectId !== project.id) throw notFound(`campaign ${campaignId} not found in project ${locationId}`);
  return campaign;
}

export async function listCampaigns(store: Store, actor: Actor, locationId: string): Promise<CampaignRecord[]> {
  const project = await loadProject(store, actor, locationId);
  return store.campaigns.listByProject(actor.agencyId, project.id);
}

/** A campaign on an agent of the project (and its workflow from a template, when named). */
export function createCampaign(store: Store, actor: Actor, locationId: string, body: CreateCampaignBody): Promise<CampaignRecord> {
  return store.withTransaction(async (tx) => {
    const project = await loadProject(tx, actor, locationId);
    const agent = await tx.agents.get(actor.agencyId, body.agentId);
    if (!agent || agent.projectId !== project.id) throw notFound(`agent ${body.agentId} not found in project ${locationId}`);
    const dialing = body.dialing as CampaignRecord['dialing'] | undefined;
    await assertCampaignDialerSettings(tx, actor.agencyId, body);
    const template = templateNamed(body.workflowTemplateId, 'body.workflowTemplateId');
    const created = await tx.campaigns.insert({
      agencyId: actor.agencyId,
      projectId: project.id,
      agentId: agent.id,
      name: body.name,
      activeTags: [...(body.activeTags ?? [])],
      inactiveTags: [...(body.inactiveTags ?? [])],
      dialing: dialing ?? (agent.agentType === 'inbound' ? null : 'pd'),
      agentType: body.agentType ?? null,
      fromNumbers: [...(body.fromNumbers ?? [])],
      active: body.active ?? false,
      ...(body.callingWindow !== undefined && { callingWindow: body.callingWindow }),
      ...(body.multipleTimezoneCheck !== undefined && { multipleTimezoneCheck: body.multipleTimezoneCheck }),
      ...(body.dropOutsideWindow !== undefined && { dropOutsideWindow: body.dropOutsideWindow }),
      config: { ...(body.config ?? {}) },
    });
    if (template) await applyTemplate(tx, actor.agencyId, { agent, campaign: created, project }, template, 0, actor.keyId);
    return created;
  });
}

/** Toggling `active` starts or stops enrolment and dialling: a stopped campaign's leads leave its queue. */
export async function updateCampaign(s: Services, actor: Actor, locationId: string, campaignId: string, body: PatchCampaignBody): Promise<CampaignRecord> {
  const { saved, stopped } = await s.store.withTransaction(async (tx) => {
    const current = await loadCampaign(tx, actor, locationId, campaignId, { forUpdate: true });
    const dialing = body.dialing as CampaignRecord['dialing'] | undefined;
    const agentType = body.agentType;
    await assertCampaignDialerSettings(tx, actor.agencyId, body);
    if (body.agentId !== undefined) {
      const agent = await tx.agents.get(actor.agencyId, body.agentId);
      if (!agent || agent.projectId !== current.projectId) throw notFound(`agent ${body.agentId} not found in this project`);
    }
    const { dialing: _d, agentType: _t, config, ...rest } = body;
    const next: CampaignRecord = {
      ...current,
      ...(rest as Partial<CampaignRecord>),
      ...(dialing !== undefined && { dialing }),
      ...(agentType !== undefined && { agentType }),
      ...(config !== undefined && { config: { ...current.config, ...config } }),
    };
    if (body.fromNumbers !== undefined) assertNotLastNumber(current, next.fromNumbers);
    const saved = await tx.campaigns.save(next);
    return { saved, stopped: current.active && !saved.active ? await campaignStopped(tx, actor.agencyId, saved.id) : [] };
  });
  stopInBackground(s, stopped, 'campaign_stopped');
  return saved;
}
