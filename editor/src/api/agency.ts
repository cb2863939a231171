/**
 * The agency's own settings and agency-wide connections (scopes `agency:read`, `agency:write`,
 * `webhooks:write`; agency_admin keys only). Secrets go one way: a credential is sent and never
 * read back, and a generated secret is in one answer only (the caller shows it once and drops it).
 */
import { answer, client } from './client';
import type { TwilioCredentials, VapiCredentials } from './types';

export const agencyApi = {
  get: () => answer(client.GET('/api/agency')).then((r) => r.data),
  /** recent failure alerts, newest first (a project's disconnection among them, with when) */
  alerts: () => answer(client.GET('/api/agency/alerts', { params: { query: { limit: 200 } } })).then((r) => r.data),
  putTwilio: (body: TwilioCredentials) => answer(client.PUT('/api/agency/credentials/twilio', { body })).then((r) => r.data),
  removeTwilio: () => answer(client.DELETE('/api/agency/credentials/twilio')).then((r) => r.data),
  /** the answer carries Vapi's server URL and, when none was sent, a generated secret: shown once */
  putVapi: (body: VapiCredentials) => answer(client.PUT('/api/agency/credentials/vapi', { body })).then((r) => r.data),
  removeVapi: () => answer(client.DELETE('/api/agency/credentials/vapi')).then((r) => r.data),
  /** the call-event signing secret, once (409 SecretAlreadyShown after that) */
  revealSigningSecret: () => answer(client.POST('/api/agency/signing-secret/reveal')).then((r) => r.data),
  /** a new signing secret, shown once; the old one verifies for `graceSeconds` more */
  rotateSigningSecret: (graceSeconds: number) => answer(client.POST('/api/agency/signing-secret/rotate', { body: { graceSeconds } })).then((r) => r.data),
};
