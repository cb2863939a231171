/** Call history (scope `calls:read`, `calls:write` to mark reviewed): a page of calls, and one call. */
import { answer, client } from './client';
import type { CallFilters } from './types';

export const callsApi = {
  /** newest first; `cursor` is the previous page's `nextCursor` */
  list: (filters: CallFilters) => answer(client.GET('/api/call-history', { params: { query: filters } })).then((r) => r.data),
  get: (callId: string) => answer(client.GET('/api/call-history/by-call-id/{callId}', { params: { path: { callId } } })).then((r) => r.data),
  setReviewed: (callId: string, reviewed: boolean) =>
    answer(client.PATCH('/api/call-history/by-call-id/{callId}', { params: { path: { callId } }, body: { reviewed } })).then((r) => r.data),
};
