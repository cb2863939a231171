/** API keys over HTTP (scope `keys:write`, agency_admin): list, create (the secret in that answer only), revoke. */
import { answer, client } from './client';
import type { CreateApiKeyBody } from './types';

export const keysApi = {
  list: () => answer(client.GET('/api/keys')).then((r) => r.data),
  create: (body: CreateApiKeyBody) => answer(client.POST('/api/keys', { body })).then((r) => r.data),
  revoke: (keyId: string) => answer(client.DELETE('/api/keys/{keyId}', { params: { path: { keyId } } })).then((r) => r.data),
};
