import { whoAmI } from '../api/caller';
import { projectsApi } from '../api/endpoints';
import { keysApi } from '../api/keys';
import type { ApiKey } from '../api/types';
import { newKeyBody, type NewKeyForm } from '../model/keys';
import { useAction } from './use-action';
import { useResource } from './use-resource';

/**
 * The API keys page's state: the agency's keys, the signed-in key's own record (what it may
 * grant) and the projects it reaches; creating a key (its secret is handed to the caller, kept
 * nowhere here) and revoking one, each reading the list again when done.
 */
export function useApiKeys() {
  const data = useResource(async () => {
    const [keys, me, projects] = await Promise.all([keysApi.list(), whoAmI(), projectsApi.list()]);
    return { keys, me: me.key, projects };
  }, []);
  const create = useAction(async (form: NewKeyForm) => {
    const made = await keysApi.create(newKeyBody(form));
    data.reload();
    return made;
  });
  const revoke = useAction(async (key: ApiKey) => {
    const revoked = await keysApi.revoke(key.id);
    data.reload();
    return revoked;
  });
  const failure = create.error ?? revoke.error;
  return {
    data,
    busy: create.busy || revoke.busy,
    refusal: failure?.message ?? null,
    /** the new key with its secret, for the caller to show once; not kept here */
    create: async (form: NewKeyForm) => {
      const made = await create.run(form);
      if (made) create.reset();
      return made;
    },
    revoke: async (k: ApiKey) => (await revoke.run(k)) !== null,
  };
}
