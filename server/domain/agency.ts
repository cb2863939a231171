import { randomBytes } from 'node:crypto';
import { CredentialRejectedError } from '../../engine/ports.js';
import type { Provider, TwilioCredential } from '../providers/credentials.js';
import { vendorFailure } from '../providers/vendor-errors.js';
import { smsCarrierOf, voicePlatformOf } from '../providers/choice.js';
import type { Services } from '../services.js';
import type { AgencySettings } from '../store/index.js';
import type { Actor } from './actor.js';
import { conflict, invalid } from './errors.js';

/** The Vapi outcome field when the agency names none. */
export const DEFAULT_VAPI_OUTCOME_FIELD = 'outcome';

/** The agency as its admin sees it: plan, settings with their defaults, which agency-wide credentials are set (never their secrets). */
export async function agencyView(s: Services, agencyId: string) {
  const agency = (await s.store.agencies.get(agencyId))!;
  const st = await s.store.agencies.settings(agencyId);
  return {
    id: agency.id,
    name: agency.name,
    planLimit: agency.planLimit,
    liveProjects: await s.store.projects.countLive(agencyId),
    settings: {
      smsCarrier: smsCarrierOf(undefined, st),
      voicePlatform: voicePlatformOf(st),
      vapiOutcomeField: st.vapiOutcomeField ?? DEFAULT_VAPI_OUTCOME_FIELD,
      ...(st.vapiOutcomeMap && { vapiOutcomeMap: st.vapiOutcomeMap }),
      ...(st.alertWebhookUrl && { alertWebhookUrl: st.alertWebhookUrl }),
      ...(st.alertEmail && { alertEmail: st.alertEmail }),
    },
    credentials: (await s.credentials.list(agencyId)).filter((c) => c.owner === 'agency'),
  };
}

const hasCredentials = async (s: Pick<Services, 'credentials'>, agencyId: string, provider: Provider) =>
  (await s.credentials.list(agencyId)).some((c) => c.owner === 'agency' && c.provider === provider);

/** A settings change; `null` removes a setting. A carrier or platform needs its credentials first. */
export async function updateAgencySettings(s: Services, actor: Actor, change: { [K in keyof AgencySettings]?: AgencySettings[K] | null }): Promise<void> {
  if (typeof change.alertWebhookUrl === 'string') {
    // Decided now where it can be (a literal address, a name resolving inside); delivery checks every time.
    const refused = await s.outbound.check(change.alertWebhookUrl);
    if (refused) throw invalid(`body.alertWebhookUrl: refused: ${refused}; alerts are delivered to public addresses only`);
  }
  await s.store.withTransaction(async (tx) => {
    const credentials = s.credentials.on(tx.credentials);
    if (change.smsCarrier === 'twilio' && !(await hasCredentials({ credentials }, actor.agencyId, 'twilio'))) {
      throw conflict('body.smsCarrier "twilio" needs the agency\'s Twilio credentials first (PUT /api/agency/credentials/twilio)', 'CredentialsMissing');
    }
    if (change.voicePlatform === 'vapi' && !(await hasCredentials({ credentials }, actor.agencyId, 'vapi'))) {
      throw conflict('body.voicePlatform "vapi" needs the agency\'s Vapi credentials first (PUT /api/agency/credentials/vapi)', 'CredentialsMissing');
    }
    // Locked: two changes of different settings at once both stay.
    await tx.agencies.lockForUpdate(actor.agencyId);
    const next: Record<string, unknown> = { ...(await tx.agencies.settings(actor.agencyId)), ...change };
    for (const [k, v] of Object.entries(next)) if (v === null) delete next[k];
    await tx.agencies.saveSettings(actor.agencyId, next as AgencySettings);
  });
}

const summaryOf = async (s: Services, agencyId: string, provider: Provider) => (await s.credentials.list(agencyId)).find((c) => c.owner === 'agency' && c.provider === provider)!;

/** The agency's Twilio account, verified with Twilio first, stored sealed. */
export async function setTwilioCredentials(s: Services, actor: Actor, credential: TwilioCredential) {
  try {
    await s.providers.verifyTwilio(credential);
  } catch (err) {
    if (err instanceof CredentialRejectedError) throw invalid(`body.authToken: Twilio refused these credentials (${err.message})`);
    throw vendorFailure(err, 'verifying the Twilio credentials');
  }
  await s.credentials.put(actor.agencyId, 'agency', 'twilio', credential);
  return summaryOf(s, actor.agencyId, 'twilio');
}

/**
 * The agency's Vapi account: the API key (verified with Vapi first) and the secret its server
 * messages are verified with, generated when not given (and then shown once). A replaced secret
 * still verifies for the grace period, so deliveries in flight are not refused.
 */
export async function setVapiCredentials(s: Services, actor: Actor, body: { apiKey: string; serverSecret?: string; secretKind?: 'hmac' | 'secret' }) {
  try {
    await s.providers.verifyVapi(body.apiKey);
  } catch (err) {
    if (err instanceof CredentialRejectedError) throw invalid(`body.apiKey: Vapi refused this key (${err.message})`);
    throw vendorFailure(err, 'verifying the Vapi API key');
  }
  const generated = body.serverSecret ? undefined : `vsec_${randomBytes(24).toString('base64url')}`;
  const serverSecret = body.serverSecret ?? generated!;
  const secretKind = body.secretKind ?? 'hmac';
  const previousUntil = await s.store.withTransaction(async (tx) => {
    const credentials = s.credentials.on(tx.credentials);
    const previous = await credentials.get(actor.agencyId, 'agency', 'vapi');
    const keepOld = previous && previous.serverSecret !== serverSecret;
    const until = keepOld ? new Date(Date.now() + s.config.webhookSecretGraceSeconds * 1000).toISOString() : undefined;
    await credentials.put(actor.agencyId, 'agency', 'vapi', { apiKey: body.apiKey, serverSecret, secretKind, ...(keepOld && { previousServerSecret: previous.serverSecret, previousUntil: until }) });
    return until;
  });
  return { credential: await summaryOf(s, actor.agencyId, 'vapi'), secretKind, generated, previousUntil };
}

/** The current signing secret, once; afterwards only a rotation shows one. */
export async function revealSigningSecret(s: Services, actor: Actor): Promise<string> {
  const secret = await s.store.agencies.revealSigningSecret(actor.agencyId);
  if (!secret) throw conflict('the signing secret was already shown once; rotate it (POST /api/agency/signing-secret/rotate) to get a new one', 'SecretAlreadyShown');
  return secret;
}

export const rotateSigningSecret = (s: Services, actor: Actor, graceSeconds: number | undefined) =>
  s.store.agencies.rotateSigningSecret(actor.agencyId, graceSeconds ?? s.config.webhookSecretGraceSeconds);

/** Removes agency-wide credentials, unless the agency or one of its projects still uses them. */
export async function removeAgencyCredentials(s: Services, actor: Actor, provider: 'twilio' | 'vapi'): Promise<boolean> {
  return s.store.withTransaction(async (tx) => {
    const settings = await tx.agencies.settings(actor.agencyId);
    if (provider === 'vapi' && voicePlatformOf(settings) === 'vapi') {
      throw conflict('Vapi is the agency\'s voice platform: set voicePlatform to "sandbox" first', 'VoicePlatformInUse');
    }
    if (provider === 'twilio' && (smsCarrierOf(undefined, settings) === 'twilio' || (await tx.projects.list(actor.agencyId)).some((p) => p.smsCarrier === 'twilio'))) {
      throw conflict('Twilio is the SMS carrier of the agency or of one of its projects: switch them to "crm" first', 'CarrierInUse');
    }
    return s.credentials.on(tx.credentials).remove(actor.agencyId, 'agency', provider);
  });
}
