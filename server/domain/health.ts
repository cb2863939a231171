import type { Services } from '../services.js';

export const API_VERSION = '1.0.0';

/** Whether this process can serve: its store answers, and Temporal (when used) its namespace. */
export async function readiness(s: Pick<Services, 'store' | 'temporal'>) {
  let store: 'ok' | 'down' = 'ok';
  try {
    await s.store.ping();
  } catch {
    store = 'down';
  }
  const temporal = s.temporal ? ((await s.temporal.health()) ? ('ok' as const) : ('down' as const)) : ('not_configured' as const);
  const status = store === 'ok' && temporal !== 'down' ? ('ready' as const) : ('not_ready' as const);
  return { status, store, temporal, version: API_VERSION };
}
