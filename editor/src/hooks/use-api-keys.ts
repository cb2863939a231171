import { useState } from 'react';
import { whoAmI } from '../api/caller';
import { projectsApi } from '../api/endpoints';
import { keysApi } from '../api/keys';
import type { ApiKey, CreatedApiKey } from '../api/types';
import { newKeyBody, type NewKeyForm } from '../model/keys';
import { useResource } from './use-resource';

/**
 * The API keys page's state: the agency's keys, the signed-in key's own record (what it may
 * grant) and the projects it reaches; creating a key (its secret is handed to the caller, kept
 * nowhere here) and revoking one.
 */
export function useApiKeys() {
  const data = useResource(async () => {
    const [keys, me, projects] = await Promise.all([keysApi.list(), whoAmI(), projectsApi.list()]);
    return { keys, me: me.key, projects };
  }, []);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const create = async (form: NewKeyForm): Promise<CreatedApiKey | null> => {
    setBusy(true);
    setRefusal(null);
    try {
      const created = await keysApi.create(newKeyBody(form));
      data.reload();
      return created;
    } catch (err) {
      setRefusal((err as Error).message);
      return null;
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: ApiKey): Promise<boolean> => {
    setBusy(true);
    setRefusal(null);
    try {
      await keysApi.revoke(key.id);
      data.reload();
      return true;
    } catch (err) {
      setRefusal((err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { data, busy, refusal, create, revoke };
}
