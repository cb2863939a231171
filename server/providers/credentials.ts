import type { CredentialsRepository } from '../store/index.js';
import type { Sealer } from './sealing.js';

/** A GoHighLevel location's credential: a Private Integration token, or OAuth tokens. */
export type GohighlevelCredential =
  | { kind: 'private-integration'; token: string }
  | { kind: 'oauth'; accessToken: string; refreshToken: string; expiresAt: string };

export interface TwilioCredential {
  accountSid: string;
  authToken: string;
  messagingServiceSid?: string;
}

export interface VapiCredential {
  apiKey: string;
  /** the secret Vapi's server messages are verified with */
  serverSecret: string;
  /** how Vapi presents it: an HMAC credential (`x-signature` over `{timestamp}.{body}`) or the legacy `X-Vapi-Secret` */
  secretKind: 'hmac' | 'secret';
  /** the secret being replaced, accepted until `previousUntil` (a rotation's grace period) */
  previousServerSecret?: string;
  previousUntil?: string;
}

export interface CredentialTypes {
  gohighlevel: GohighlevelCredential;
  twilio: TwilioCredential;
  vapi: VapiCredential;
}
export type Provider = keyof CredentialTypes;

/** What may be shown of a credential in an API answer or a log: never a token or secret. */
export interface CredentialSummary {
  provider: Provider;
  owner: string;
  hint: string;
  updatedAt: string;
}

function hintOf<P extends Provider>(provider: P, c: CredentialTypes[P]): string {
  if (provider === 'twilio') return `account …${(c as TwilioCredential).accountSid.slice(-4)}`;
  if (provider === 'gohighlevel') return (c as GohighlevelCredential).kind === 'oauth' ? 'OAuth tokens' : 'Private Integration token';
  return 'API key';
}

/**
 * Typed, sealed credentials. The owner is 'agency' for agency-wide ones (Twilio, Vapi) or a
 * project id (a CRM location's token). Secrets exist in the clear only in memory, on their way to
 * a vendor.
 */
export interface CredentialStore {
  get<P extends Provider>(agencyId: string, owner: string, provider: P): Promise<(CredentialTypes[P] & { updatedAt: string }) | undefined>;
  put<P extends Provider>(agencyId: string, owner: string, provider: P, credential: CredentialTypes[P]): Promise<void>;
  remove(agencyId: string, owner: string, provider: Provider): Promise<boolean>;
  list(agencyId: string): Promise<CredentialSummary[]>;
  /** the same sealing, on the repository of an open transaction */
  on(repo: CredentialsRepository): CredentialStore;
}

export function credentialStore(repo: CredentialsRepository, sealer: Sealer): CredentialStore {
  const aad = (agencyId: string, owner: string, provider: string) => `${agencyId}|${owner}|${provider}`;
  return {
    async get<P extends Provider>(agencyId: string, owner: string, provider: P) {
      const row = await repo.get(agencyId, owner, provider);
      if (!row) return undefined;
      const plain = JSON.parse(sealer.open(row.sealed, aad(agencyId, owner, provider), row.keyId)) as CredentialTypes[P];
      return { ...plain, updatedAt: row.updatedAt };
    },
    put<P extends Provider>(agencyId: string, owner: string, provider: P, credential: CredentialTypes[P]) {
      return repo.put({ agencyId, owner, provider, sealed: sealer.seal(JSON.stringify(credential), aad(agencyId, owner, provider)), keyId: sealer.keyId, hint: hintOf(provider, credential) });
    },
    remove: (agencyId, owner, provider) => repo.remove(agencyId, owner, provider),
    async list(agencyId) {
      return (await repo.list(agencyId)).map((r) => ({ provider: r.provider as Provider, owner: r.owner, hint: r.hint, updatedAt: r.updatedAt }));
    },
    on: (other) => credentialStore(other, sealer),
  };
}
