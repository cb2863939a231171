import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  CredentialRejectedError,
  PermanentPortError,
  type Calendar,
  type Crm,
  type CrmDirectory,
  type EffectJournal,
  type LocationInfo,
  type Messaging,
  type Ports,
} from '../../engine/ports.js';
import type { Config } from '../config.js';
import type { ProjectRecord, Store } from '../store/index.js';
import { gohighlevelAdapter, type GohighlevelAdapter } from '../adapters/gohighlevel/index.js';
import { refreshAccessToken } from '../adapters/gohighlevel/oauth.js';
import { twilioMessaging } from '../adapters/twilio/index.js';
import { vendorHttp } from '../adapters/vendor-http.js';
import type { CredentialStore, GohighlevelCredential, TwilioCredential } from './credentials.js';

import { smsCarrierOf as chosenCarrier, type SmsCarrier } from './choice.js';

export type { SmsCarrier };

/** A location's providers: the CRM (with its setup reads), messaging and calendar. */
export interface LocationProviders {
  crm: Crm;
  directory: CrmDirectory;
  messaging: Messaging;
  calendar: Calendar;
  /** `sandbox`: the embedded CRM (no credential, or a test run); `gohighlevel`: the real location */
  crmKind: 'sandbox' | 'gohighlevel';
  smsCarrier: 'sandbox' | 'gohighlevel' | 'twilio';
  /**
   * For a real CRM: the stored credential's version (it changes on every connect, reconnect and
   * token refresh, whichever process writes it), which cached setup reads are checked against.
   */
  credentialStamp?: string;
}

/** Test runs (workflow test-runs) act on a location of their own in the sandbox: nothing reaches a real CRM. */
export const TEST_LOCATION_PREFIX = 'test:';

/** Refresh OAuth tokens this long before they expire. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** how often a process waiting for another's token refresh looks for the new token */
const REFRESH_POLL_MS = 200;

export interface RegistryDeps {
  config: Config;
  store: Store;
  credentials: CredentialStore;
  journal: EffectJournal;
  sandbox: Ports & { directory: CrmDirectory };
  logger: Logger;
  /** a CRM refused a project's credential: the project is now `disconnected` (spec 3.1) and its alert recorded */
  onAlert?: () => void;
}

/**
 * Decides, per agency and CRM location, which adapters act: the real CRM when the project holds a
 * credential for it, the embedded sandbox otherwise (the default, the demo, test runs), and the
 * SMS carrier the project or its agency chose. `ports()` is the facade the post-call activities
 * use: every port call carries the agency and location, so the activities need no change to act on
 * a real CRM. A CRM that refuses the credential moves the project to `disconnected`.
 */
export function providerRegistry(deps: RegistryDeps) {
  const { config, store, credentials, journal, sandbox, logger } = deps;
  const ghlAdapters = new Map<string, { adapter: GohighlevelAdapter; stamp: string }>();
  const refreshing = new Map<string, Promise<string>>();
  const reads = new Map<string, { at: number; stamp: string | undefined; value: Promise<unknown> }>();

  /**
   * The location's access token, refreshed shortly before it expires: once per project at a time
   * in this process (one promise), and across processes by a lease in the store. GoHighLevel's
   * refresh tokens are single use: a second refresh with the same one is refused, and would
   * disconnect the project.
   */
  async function ghlToken(project: ProjectRecord): Promise<string> {
    const cred = await credentials.get(project.agencyId, project.id, 'gohighlevel');
    if (!cred) throw new CredentialRejectedError('gohighlevel', `project ${project.id} has no CRM credential: reconnect it`);
    if (cred.kind === 'private-integration') return cred.token;
    if (fresh(cred)) return cred.accessToken;
    if (!config.gohighlevelClientId || !config.gohighlevelClientSecret) {
      // Without the app's client the token cannot be refreshed; use it until the CRM refuses it.
      logger.warn({ projectId: project.id }, 'a GoHighLevel OAuth token is about to expire and GHL_CLIENT_ID / GHL_CLIENT_SECRET are not set');
      return cred.accessToken;
    }
    const key = `${project.agencyId}|${project.id}`;
    let pending = refreshing.get(key);
    if (!pending) {
      pending = refreshOnce(project).finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  }

  const fresh = (c: { expiresAt: string }) => Date.parse(c.expiresAt) - Date.now() > REFRESH_MARGIN_MS;

  /** Refreshes under the project's lease, or waits for the process that holds it to store its new token. */
  async function refreshOnce(project: ProjectRecord): Promise<string> {
    const lease = `gohighlevel-oauth-refresh:${project.agencyId}:${project.id}`;
    const holder = randomUUID();
    // Long enough for the vendor's answer; a holder that died frees it when it runs out.
    const leaseMs = config.vendorTimeoutMs * 2 + 5_000;
    for (;;) {
      if (await store.leases.claim(lease, holder, leaseMs)) {
        try {
          // Re-read under the lease: another process may have refreshed while this one waited.
          const current = await credentials.get(project.agencyId, project.id, 'gohighlevel');
          if (!current || current.kind !== 'oauth') return ghlToken(project);
          if (fresh(current)) return current.accessToken;
          const t = await refreshAccessToken({ baseUrl: config.gohighlevelBaseUrl, clientId: config.gohighlevelClientId!, clientSecret: config.gohighlevelClientSecret!, refreshToken: current.refreshToken });
          await credentials.put(project.agencyId, project.id, 'gohighlevel', { kind: 'oauth', ...t });
          return t.accessToken;
        } finally {
          await store.leases.release(lease, holder);
        }
      }
      await new Promise((r) => setTimeout(r, REFRESH_POLL_MS));
      const current = await credentials.get(project.agencyId, project.id, 'gohighlevel');
      if (current?.kind === 'oauth' && fresh(current)) return current.accessToken;
      if (!current || current.kind !== 'oauth') return ghlToken(project);
    }
  }

  function ghlFor(project: ProjectRecord, stamp: string): GohighlevelAdapter {
    const key = `${project.agencyId}|${project.id}`;
    const cached = ghlAdapters.get(key);
    if (cached && cached.stamp === stamp) return cached.adapter;
    const adapter = gohighlevelAdapter({ baseUrl: config.gohighlevelBaseUrl, token: () => ghlToken(project), journal, timeoutMs: config.vendorTimeoutMs });
    ghlAdapters.set(key, { adapter, stamp });
    return adapter;
  }

  const smsCarrierOf = async (project: ProjectRecord): Promise<SmsCarrier> => chosenCarrier(project, await store.agencies.settings(project.agencyId));

  async function twilioFor(agencyId: string): Promise<Messaging> {
    const cred = await credentials.get(agencyId, 'agency', 'twilio');
    if (!cred) throw new PermanentPortError('the project sends SMS through Twilio, but the agency has no Twilio credentials: add them (PUT /api/agency/credentials/twilio) or set smsCarrier to "crm"');
    return twilioMessaging({ baseUrl: config.twilioBaseUrl, accountSid: cred.accountSid, authToken: cred.authToken, messagingServiceSid: cred.messagingServiceSid, journal, timeoutMs: config.vendorTimeoutMs });
  }

  async function forLocation(agencyId: string, locationId: string): Promise<LocationProviders> {
    const sandboxSet = { crm: sandbox.crm, directory: sandbox.directory, messaging: sandbox.messaging, calendar: sandbox.calendar };
    if (locationId.startsWith(TEST_LOCATION_PREFIX)) return { ...sandboxSet, crmKind: 'sandbox', smsCarrier: 'sandbox' };
    const project = await store.projects.atLocation(agencyId, locationId);
    if (!project) return { ...sandboxSet, crmKind: 'sandbox', smsCarrier: 'sandbox' };
    const cred = project.crm === 'crm_a' ? await store.credentials.get(agencyId, project.id, 'gohighlevel') : undefined;
    const viaTwilio = (await smsCarrierOf(project)) === 'twilio';
    if (!cred) {
      // The embedded CRM is the contact store of a project without a CRM adapter (crm_b, a crm_a
      // location connected without credentials): the carrier the agency chose still carries its SMS.
      if (!viaTwilio) return { ...sandboxSet, crmKind: 'sandbox', smsCarrier: 'sandbox' };
      return { ...sandboxSet, messaging: { sendSms: async (e, m) => (await twilioFor(agencyId)).sendSms(e, m), sendEmail: sandbox.messaging.sendEmail }, crmKind: 'sandbox', smsCarrier: 'twilio' };
    }
    const ghl = ghlFor(project, cred.updatedAt);
    const messaging: Messaging = viaTwilio ? { sendSms: async (e, m) => (await twilioFor(agencyId)).sendSms(e, m), sendEmail: ghl.sendEmail } : ghl;
    return { crm: ghl, directory: ghl, messaging, calendar: ghl, crmKind: 'gohighlevel', smsCarrier: viaTwilio ? 'twilio' : 'gohighlevel', credentialStamp: cred.updatedAt };
  }

  /** A CRM call that meets a refused credential disconnects the project, then fails as before. */
  async function crmCall<T>(agencyId: string, locationId: string, run: (p: LocationProviders) => Promise<T>): Promise<T> {
    const providers = await forLocation(agencyId, locationId);
    try {
      return await run(providers);
    } catch (err) {
      if (err instanceof CredentialRejectedError && err.vendor === 'gohighlevel' && providers.crmKind === 'gohighlevel') {
        const project = await markDisconnected(agencyId, locationId, err.message);
        throw new CredentialRejectedError('gohighlevel', `${err.message}. Project ${project?.id ?? locationId} is now disconnected: reconnect it with a new credential, then retry the run from its failed step`);
      }
      throw err;
    }
  }

  async function markDisconnected(agencyId: string, locationId: string, reason: string): Promise<ProjectRecord | undefined> {
    // In one transaction: concurrent refusals disconnect the project, and raise its alert, once.
    const disconnected = await store.withTransaction(async (tx) => {
      const project = await tx.projects.find(agencyId, locationId, { forUpdate: true });
      if (!project || project.status === 'disconnected') return { project, now: false };
      const saved = await tx.projects.save({ ...project, status: 'disconnected', crm_a: null, disconnectedReason: reason });
      await tx.alerts.record(agencyId, 'project.disconnected', { projectId: saved.id, locationId: saved.locationId, businessName: saved.businessName, reason });
      return { project: saved, now: true };
    });
    if (disconnected.now && disconnected.project) {
      logger.warn({ agencyId, projectId: disconnected.project.id }, 'the CRM refused the project credential: project disconnected');
      deps.onAlert?.();
    }
    return disconnected.project;
  }

  /**
   * Setup reads (pipelines, calendars, custom fields and values) of a real CRM, reused for a short
   * while per location; the sandbox is a local table and is read as it is. A reused read is only
   * good for the credential it was read with: a reconnect through any API process changes the
   * stored credential, and every process's next read goes to the CRM again.
   */
  async function cachedRead<T>(agencyId: string, locationId: string, what: string, read: () => Promise<T>): Promise<T> {
    const { crmKind, credentialStamp } = await forLocation(agencyId, locationId);
    if (crmKind === 'sandbox') return read();
    const key = `${agencyId}|${locationId}|${what}`;
    const hit = reads.get(key);
    if (hit && hit.stamp === credentialStamp && Date.now() - hit.at < config.crmReadCacheSeconds * 1000) return hit.value as Promise<T>;
    const value = read();
    reads.set(key, { at: Date.now(), stamp: credentialStamp, value });
    value.catch(() => reads.delete(key));
    return value;
  }

  const ports: Ports = {
    executionLog: sandbox.executionLog,
    crm: {
      getContact: (a, l, id) => crmCall(a, l, (p) => p.crm.getContact(a, l, id)),
      // Every action renders templates with the location's custom values: read once a while, not per step.
      customValues: (a, l) => cachedRead(a, l, 'customValues', () => crmCall(a, l, (p) => p.crm.customValues(a, l))),
      customFields: (a, l) => cachedRead(a, l, 'customFields', () => crmCall(a, l, (p) => p.crm.customFields(a, l))),
      addTags: (e, id, tags) => crmCall(e.agencyId, e.locationId, (p) => p.crm.addTags(e, id, tags)),
      removeTags: (e, id, tags) => crmCall(e.agencyId, e.locationId, (p) => p.crm.removeTags(e, id, tags)),
      setField: (e, id, f, v) => crmCall(e.agencyId, e.locationId, (p) => p.crm.setField(e, id, f, v)),
      moveStage: (e, id, pl, st) => crmCall(e.agencyId, e.locationId, (p) => p.crm.moveStage(e, id, pl, st)),
      addNote: (e, id, body) => crmCall(e.agencyId, e.locationId, (p) => p.crm.addNote(e, id, body)),
    },
    messaging: {
      sendSms: (e, m) => crmCall(e.agencyId, e.locationId, (p) => p.messaging.sendSms(e, m)),
      sendEmail: (e, m) => crmCall(e.agencyId, e.locationId, (p) => p.messaging.sendEmail(e, m)),
    },
    calendar: { book: (e, r) => crmCall(e.agencyId, e.locationId, (p) => p.calendar.book(e, r)) },
  };

  return {
    forLocation,
    ports: () => ports,
    /** the location's setup for the editor's pickers and spec 4.10 / 4.11, cached briefly */
    directory: {
      pipelines: (a: string, l: string) => cachedRead(a, l, 'pipelines', () => crmCall(a, l, (p) => p.directory.pipelines(a, l))),
      calendars: (a: string, l: string) => cachedRead(a, l, 'calendars', () => crmCall(a, l, (p) => p.directory.calendars(a, l))),
      customFields: (a: string, l: string) => cachedRead(a, l, 'customFields', () => crmCall(a, l, (p) => p.crm.customFields(a, l))),
      customValues: (a: string, l: string) => cachedRead(a, l, 'customValues', () => crmCall(a, l, (p) => p.crm.customValues(a, l))),
    },
    /** Checks a GoHighLevel credential against the location it claims, and reads the location. */
    async verifyGohighlevel(locationId: string, credential: GohighlevelCredential): Promise<LocationInfo> {
      const token = credential.kind === 'oauth' ? credential.accessToken : credential.token;
      const probe = gohighlevelAdapter({ baseUrl: config.gohighlevelBaseUrl, token: async () => token, journal, timeoutMs: config.vendorTimeoutMs });
      return probe.location('', locationId);
    },
    /** Checks a Vapi private API key with a one-call list of the account (401: refused). */
    async verifyVapi(apiKey: string): Promise<void> {
      const http = vendorHttp({ vendor: 'vapi', baseUrl: config.vapiBaseUrl, auth: async () => ({ authorization: `Bearer ${apiKey}` }), timeoutMs: config.vendorTimeoutMs });
      await http.request({ method: 'GET', path: '/call', query: { limit: 1 } });
    },
    /** Checks Twilio credentials with a one-message list of the account. */
    async verifyTwilio(credential: TwilioCredential): Promise<void> {
      await twilioMessaging({ baseUrl: config.twilioBaseUrl, ...credential, journal, timeoutMs: config.vendorTimeoutMs }).verify();
    },
  };
}
export type ProviderRegistry = ReturnType<typeof providerRegistry>;
