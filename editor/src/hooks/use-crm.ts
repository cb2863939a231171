/**
 * The forms' view of the agent's CRM: a resource is fetched the first time a form that shows it
 * opens (once per editor session; Refresh fetches it again), never while the editor loads.
 */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { CrmData, CrmLoad, CrmResource, CrmStore } from '../store/crm-store';
import { fieldPaths, tokenGroups, type TokenGroup } from '../model/tokens';
import { useEditor } from '../store/context';

export function useCrmStore(): CrmStore {
  return useEditor((s) => s.deps.crm);
}

/** One CRM resource, loading it on first use. */
export function useCrm<R extends CrmResource>(resource: R): CrmLoad<CrmData[R]> {
  const crm = useCrmStore();
  const load = useStore(crm, (s) => s.loads[resource]) as CrmLoad<CrmData[R]>;
  useEffect(() => crm.getState().load(resource), [crm, resource]);
  return load;
}

/** Several resources at once (the form's CRM notice), loading them on first use. */
export function useCrmLoads(resources: readonly CrmResource[]): CrmLoad<unknown>[] {
  const crm = useCrmStore();
  const loads = useStore(crm, useShallow((s) => resources.map((r) => s.loads[r] as CrmLoad<unknown>)));
  useEffect(() => {
    for (const r of resources) crm.getState().load(r);
  }, [crm, resources]);
  return loads;
}

const valueOf = <T,>(load: CrmLoad<T>): T | undefined => (load.status === 'done' || load.status === 'loading' ? load.value : undefined);
const NONE: never[] = [];

/** The token picker's groups: standard tokens at once, the CRM's custom fields and values when read. */
export function useTokens(): TokenGroup[] {
  const agent = useEditor((s) => s.deps.agent);
  const values = valueOf(useCrm('customValues')) ?? NONE;
  const fields = valueOf(useCrm('customFields')) ?? NONE;
  return useMemo(() => tokenGroups(agent, values, fields), [agent, values, fields]);
}

/** Paths for branch conditions and set-field (no braces), with the CRM's custom fields when read. */
export function useFieldPaths(): string[] {
  const agent = useEditor((s) => s.deps.agent);
  const fields = valueOf(useCrm('customFields')) ?? NONE;
  return useMemo(() => fieldPaths(agent, fields), [agent, fields]);
}
