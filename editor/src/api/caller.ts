/**
 * Who the signed-in key is, as far as the console needs to know: no endpoint names the caller, so
 * it is learned from the API. A key that may list the agency's keys (`keys:write`) finds its own
 * record there by its prefix (the first characters of the secret it signed in with), which gives
 * its role, scopes and projects exactly; `GET /api/agency` answering says it may see the agency's
 * connections. A 403 on either means that page is not for this key. Learned once per key and page
 * life, in memory only.
 */
import { ApiError, session } from './client';
import { agencyApi } from './agency';
import { keysApi } from './keys';
import type { ApiKey } from './types';

export interface Caller {
  /** the key's own record, when it may list keys: its role, scopes and projects */
  key: ApiKey | null;
  /** it may list, create and revoke API keys */
  keys: boolean;
  /** it may see and change the agency's connections (agency settings, Twilio, Vapi, signing secret) */
  agency: boolean;
}

/** How many characters of a secret the API shows as a key's `prefix`. */
const PREFIX_LENGTH = 10;

const learned = new Map<string, Promise<Caller>>();

/** A refusal (403) means "not for this key"; anything else is passed on. */
const allowed = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => {
      if (err instanceof ApiError && err.isForbidden) return { ok: false as const };
      throw err;
    },
  );

async function learn(secret: string): Promise<Caller> {
  const [keys, agency] = await Promise.all([allowed(keysApi.list()), allowed(agencyApi.get())]);
  const prefix = secret.slice(0, PREFIX_LENGTH);
  const mine = keys.ok ? (keys.value as ApiKey[]).filter((k) => k.prefix === prefix && k.status === 'active') : [];
  return { key: mine.length === 1 ? mine[0]! : null, keys: keys.ok, agency: agency.ok };
}

export function whoAmI(): Promise<Caller> {
  const secret = session.get() ?? '';
  let p = learned.get(secret);
  if (!p) {
    p = learn(secret);
    learned.set(secret, p);
    // A failure (network, 5xx) is asked again next time.
    p.catch(() => learned.delete(secret));
  }
  return p;
}
