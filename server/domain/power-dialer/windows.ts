import { stepProblems, windowSettingProblems } from '../../../engine/cadence/index.js';
import type { Store } from '../../store/index.js';
import { invalid } from '../errors.js';

/** Ranges and zones the schema cannot check, as invalid input naming the field (`body.steps[1].callingWindow.tz ...`). */
export function assertStepsUsable(steps: readonly unknown[], path = 'body.steps'): void {
  const problems = steps.flatMap((step, i) => [
    ...stepProblems(step, `${path}[${i}]`),
    ...windowSettingProblems((step as { callingWindow?: unknown }).callingWindow, `${path}[${i}].callingWindow`),
  ]);
  if (problems.length > 0) throw invalid(problems.join('; '));
}

/** The same for a calling-window setting of a campaign or project. */
export function assertWindowsUsable(setting: unknown, path: string): void {
  const problems = windowSettingProblems(setting, path);
  if (problems.length > 0) throw invalid(problems.join('; '));
}

/** Campaign writes: windows usable, `config.cadenceId` a cadence of the agency. */
export async function assertCampaignDialerSettings(store: Store, agencyId: string, body: { callingWindow?: unknown; config?: { cadenceId?: string } }): Promise<void> {
  if (body.callingWindow !== undefined) assertWindowsUsable(body.callingWindow, 'body.callingWindow');
  const cadenceId = body.config?.cadenceId;
  if (cadenceId !== undefined && !(await store.cadences.get(agencyId, cadenceId))) {
    throw invalid(`body.config.cadenceId "${cadenceId}" is not a cadence of this agency`);
  }
}
