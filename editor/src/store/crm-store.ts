/**
 * What the agent's CRM holds for the forms' pickers: pipelines and stages, calendars, contact
 * custom fields, location custom values. A small store per agent: each resource is fetched when a
 * form first asks for it (never on the editor's load path), once, and again only on `refresh`
 * (the server caches real-CRM reads briefly as well). Failures are kept, classified, until retried.
 */
import { createStore } from 'zustand/vanilla';
import { ApiError, session } from '../api/client';
import { crmApi } from '../api/endpoints';
import type { CrmCalendar, CustomField, CustomValue, Pipeline } from '../api/types';

export interface CrmData {
  pipelines: Pipeline[];
  calendars: CrmCalendar[];
  customFields: CustomField[];
  customValues: CustomValue[];
}
export type CrmResource = keyof CrmData;
export const CRM_RESOURCES: readonly CrmResource[] = ['pipelines', 'calendars', 'customFields', 'customValues'];

/** What went wrong: the project must be reconnected, the key may not read the CRM, or anything else. */
export interface CrmFailure {
  kind: 'disconnected' | 'forbidden' | 'failed';
  message: string;
}

/** One resource: `value` stays while it is refreshed. */
export type CrmLoad<T> =
  | { status: 'idle' }
  | { status: 'loading'; value?: T }
  | { status: 'done'; value: T }
  | { status: 'error'; failure: CrmFailure };

export type CrmFetchers = { [R in CrmResource]: () => Promise<CrmData[R]> };

export interface CrmState {
  loads: { [R in CrmResource]: CrmLoad<CrmData[R]> };
  /** fetches the resource unless it is loaded, loading or failed */
  load(resource: CrmResource): void;
  /** fetches it again (Refresh, Retry) */
  refresh(resource: CrmResource): void;
  /** forgets failed reads, so the next form that asks reads again (lists read fine are kept) */
  forgetFailures(): void;
}
export type CrmStore = ReturnType<typeof createCrmStore>;

export function failureOf(err: unknown): CrmFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError && err.isDisconnected) return { kind: 'disconnected', message };
  if (err instanceof ApiError && err.status === 403) return { kind: 'forbidden', message };
  return { kind: 'failed', message };
}

export function createCrmStore(fetchers: CrmFetchers) {
  return createStore<CrmState>()((set, get) => {
    /** bumped per fetch, so an older answer never overwrites a newer one */
    const seq: Partial<Record<CrmResource, number>> = {};
    const fetchNow = (r: CrmResource) => {
      const mine = (seq[r] = (seq[r] ?? 0) + 1);
      const before = get().loads[r];
      const keep = before.status === 'done' || before.status === 'loading' ? before.value : undefined;
      const put = (load: CrmLoad<unknown>) => set((s) => ({ loads: { ...s.loads, [r]: load } }));
      put(keep === undefined ? { status: 'loading' } : { status: 'loading', value: keep });
      fetchers[r]().then(
        (value) => seq[r] === mine && put({ status: 'done', value }),
        (err: unknown) => seq[r] === mine && put({ status: 'error', failure: failureOf(err) }),
      );
    };
    return {
      loads: { pipelines: { status: 'idle' }, calendars: { status: 'idle' }, customFields: { status: 'idle' }, customValues: { status: 'idle' } },
      load(r) {
        if (get().loads[r].status === 'idle') fetchNow(r);
      },
      refresh(r) {
        fetchNow(r);
      },
      forgetFailures() {
        const loads = { ...get().loads };
        for (const r of CRM_RESOURCES) if (loads[r].status === 'error') loads[r] = { status: 'idle' };
        set({ loads });
      },
    };
  });
}

const perAgent = new Map<string, CrmStore>();

/**
 * The agent's CRM store for this page's life (per signed-in key): campaigns of one agent share the
 * lists it read. Opening a workflow again gives what failed another chance (say, after a reconnect).
 */
export function crmStoreFor(agentId: string): CrmStore {
  const key = `${session.get() ?? ''}|${agentId}`;
  let store = perAgent.get(key);
  if (!store) perAgent.set(key, (store = createCrmStore(crmApi(agentId))));
  else store.getState().forgetFailures();
  return store;
}
