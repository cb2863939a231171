import { CredentialRejectedError, type LocationInfo } from '../../engine/ports.js';
import { VendorRefusedError } from '../adapters/vendor-http.js';
import type { GohighlevelCredential } from '../providers/credentials.js';
import { vendorFailure } from '../providers/vendor-errors.js';
import type { Services } from '../services.js';
import type { CampaignRecord, ProjectRecord, ReadOptions, Store } from '../store/index.js';
import type { CreateProjectBody, UpdateProjectBody } from '../../schemas/project.js';
import { assertProjectAccess, canAccessProject, type Actor } from './actor.js';
import { canonicalJson } from './canonical-json.js';
import { conflict, invalid, notFound } from './errors.js';
import { assertWindowsUsable } from './power-dialer/windows.js';
import { projectStopped, stopInBackground } from './power-dialer/dialer.js';

/** Project fields (spec 2.1) an update cannot set, and where they do change. */
const OWNED_FIELDS: Record<string, string> = {
  id: 'a project keeps its id',
  agencyId: 'a project stays in its agency',
  crm: 'connect the other CRM as a new project (POST /api/v2/projects)',
  locationId: 'connect the other location as a new project (POST /api/v2/projects)',
  status: 'send `active` (true: live, false: stopped); a disconnected project is fixed by POST /api/v2/projects/{id}/reconnect',
  installed: 'set by connecting (POST /api/v2/projects) and deleting (DELETE /api/v2/projects/{id})',
  campaigns: 'use the campaign endpoints (/api/agent-builder/projects/{locationId}/campaigns)',
  createdAt: 'set by the server',
  updatedAt: 'set by the server',
  uninstalledAt: 'set by the server when the project is deleted',
  crm_a: 'read from the CRM location; send new credentials to POST /api/v2/projects/{id}/reconnect',
  crm_b: 'set when the project is connected',
  disconnectedReason: 'set by the server; cleared by a reconnect',
  credentials: 'send them to POST /api/v2/projects/{id}/reconnect',
};

/** A project with its campaigns, as every project answer shows it. */
export interface ProjectView {
  project: ProjectRecord;
  campaigns: CampaignRecord[];
}

export const viewOf = async (store: Store, project: ProjectRecord): Promise<ProjectView> => ({ project, campaigns: await store.campaigns.listByProject(project.agencyId, project.id) });

/** Shared by every operation that names a project: another agency's project is NOT_FOUND, never FORBIDDEN. */
export async function loadProject(store: Store, actor: Actor, idOrLocation: string, opts?: ReadOptions): Promise<ProjectRecord> {
  const project = await store.projects.find(actor.agencyId, idOrLocation, opts);
  if (!project) throw notFound(`project ${idOrLocation} not found`);
  assertProjectAccess(actor, project.id);
  return project;
}

/** A project whose CRM credential stopped working cannot serve anything that needs the CRM. */
export function assertCrmUsable(project: ProjectRecord): void {
  if (project.status === 'disconnected' || !project.installed) {
    const why = project.disconnectedReason ? ` (${project.disconnectedReason})` : '';
    throw conflict(`project ${project.id} is disconnected from its CRM${why}: reconnect it (POST /api/v2/projects/${project.id}/reconnect) before using CRM data`, 'Disconnected');
  }
}

/**
 * The agency's plan has room for one more live project; counted in the caller's transaction, under
 * the agency's lock, so two transactions never both count the last free slot.
 */
async function assertSlotFree(tx: Store, agencyId: string): Promise<void> {
  await tx.agencies.lockForUpdate(agencyId);
  const agency = (await tx.agencies.get(agencyId))!;
  if ((await tx.projects.countLive(agencyId)) >= agency.planLimit) {
    throw conflict(`the agency's plan allows ${agency.planLimit} live projects; stop one first or upgrade the plan`, 'SubAccountCapReached');
  }
}

export async function assertTwilioSet(s: Pick<Services, 'credentials'>, agencyId: string, field: string): Promise<void> {
  if (!(await s.credentials.list(agencyId)).some((c) => c.owner === 'agency' && c.provider === 'twilio')) {
    throw conflict(`${field} "twilio" needs the agency's Twilio credentials first (PUT /api/agency/credentials/twilio)`, 'CredentialsMissing');
  }
}

type CredentialBody = { token: string } | { accessToken: string; refreshToken: string; expiresAt: string };
const toCredential = (c: CredentialBody): GohighlevelCredential => ('token' in c ? { kind: 'private-integration', token: c.token } : { kind: 'oauth', ...c });

/** The spec's `crm_a` object (2.1) from the real location. */
const crmAOf = (l: LocationInfo): Record<string, string | null> => ({
  id: l.id, name: l.name, timezone: l.timezone, country: l.country, phone: l.phone, address: l.address, city: l.city, state: l.state, postalCode: l.postalCode, email: l.email, website: l.website,
});

/**
 * Checks a credential against the location it is for, and reads that location (spec 2.1's crm_a).
 * A refused token is the caller's input being wrong: invalid, naming the field. So is a read that
 * answers another location: the token belongs to that one, and every later call would act there
 * while the project names this one.
 */
async function verifiedLocation(s: Services, locationId: string, credential: GohighlevelCredential, named = `body.locationId ${locationId}`): Promise<LocationInfo> {
  let location: LocationInfo;
  try {
    location = await s.providers.verifyGohighlevel(locationId, credential);
  } catch (err) {
    if (err instanceof CredentialRejectedError) throw invalid(`body.credentials was rejected by GoHighLevel for location ${locationId}: ${err.message}`);
    if (err instanceof VendorRefusedError && (err.status === 404 || err.status === 400 || err.status === 422)) {
      throw invalid(`body.locationId ${locationId} could not be read with these credentials: ${err.vendorMessage}`);
    }
    throw vendorFailure(err, 'verifying the CRM credentials');
  }
  if (location.id !== locationId) {
    throw invalid(`body.credentials belong to location ${location.id}, not to ${named}: GoHighLevel answered the location read with that location's id. Send the token of location ${locationId}`);
  }
  return location;
}

/**
 * Connects a CRM location as a project (install). With credentials, the location is read from the
 * CRM first (outside any transaction); the plan slot is counted and the project stored in one.
 */
export async function connectProject(s: Services, actor: Actor, body: CreateProjectBody): Promise<ProjectView> {
  assertWindowsUsable(body.callingWindowOverride, 'body.callingWindowOverride');
  if (body.smsCarrier === 'twilio') await assertTwilioSet(s, actor.agencyId, 'body.smsCarrier');
  const credential = body.credentials ? toCredential(body.credentials as CredentialBody) : null;
  const location = credential ? await verifiedLocation(s, body.locationId, credential) : null;
  return s.store.withTransaction(async (tx) => {
    // First: connects of one agency queue here, so a location connected twice at once is one
    // AlreadyConnected (never a key clash) and the plan slot below is counted by one at a time.
    await tx.agencies.lockForUpdate(actor.agencyId);
    if (await tx.projects.find(actor.agencyId, body.locationId)) {
      throw conflict(`location ${body.locationId} is already connected as a project`, 'AlreadyConnected');
    }
    const active = body.active ?? true;
    if (active) await assertSlotFree(tx, actor.agencyId);
    const agency = (await tx.agencies.get(actor.agencyId))!;
    const { crm_a, crm_b, active: _a, credentials: _c, ...rest } = body;
    const real = location ? crmAOf(location) : null;
    const project = await tx.projects.insert({
      ...rest,
      agencyId: actor.agencyId,
      timezone: body.timezone ?? real?.timezone ?? null,
      agencyName: body.agencyName ?? agency.name,
      businessName: body.businessName ?? real?.name ?? crm_a?.name ?? crm_b?.accountName ?? null,
      active,
      status: active ? 'live' : 'stopped',
      installed: true,
      ...(body.crm === 'crm_a' ? { crm_a: real ?? ({ id: body.locationId, ...(crm_a ?? {}) } as Record<string, string | null>) } : {}),
      ...(body.crm === 'crm_b' && crm_b ? { crm_b } : {}),
    });
    if (credential) await s.credentials.on(tx.credentials).put(actor.agencyId, project.id, 'gohighlevel', credential);
    return viewOf(tx, project);
  });
}

export async function listProjects(store: Store, actor: Actor): Promise<ProjectView[]> {
  const projects = (await store.projects.list(actor.agencyId)).filter((p) => canAccessProject(actor, p.id));
  return Promise.all(projects.map((p) => viewOf(store, p)));
}

/** The projects that can hold campaigns, with how many each has (spec 4.4). */
export async function campaignProjects(store: Store, actor: Actor) {
  const projects = await store.projects.list(actor.agencyId);
  return Promise.all(
    projects.map(async (p) => ({
      projectId: p.id,
      locationId: p.locationId,
      businessName: p.businessName ?? '',
      agencyName: p.agencyName ?? '',
      campaignCount: (await store.campaigns.listByProject(actor.agencyId, p.id)).length,
    })),
  );
}

/**
 * Spec 4.1 update: known fields merge, extra properties are kept, owned fields are refused unless
 * sent back unchanged, and `active` moves the project between live and stopped (a stopped
 * project's leads leave every queue). Read, checked and written in one transaction.
 */
export async function updateProject(s: Services, actor: Actor, id: string, body: UpdateProjectBody, present: (v: ProjectView) => Record<string, unknown>): Promise<ProjectView> {
  const { agencyName, active, callbacksHandledByHuman, multipleTimezoneCheck, businessName, businessNameOverridden, callingWindowOverride, knowledgeBase, smsCarrier, timezone, companyId, ...extra } = body as Record<string, unknown> & typeof body;
  assertWindowsUsable(callingWindowOverride, 'body.callingWindowOverride');
  if (smsCarrier === 'twilio') await assertTwilioSet(s, actor.agencyId, 'body.smsCarrier');
  const { view, stopped } = await s.store.withTransaction(async (tx) => {
    const current = await loadProject(tx, actor, id, { forUpdate: true });
    // Spec 2.1 fields the server owns: sent back as they are (a read-modify-write client), they
    // change nothing and are accepted; sent with another value, they are refused by name, never
    // a 200 that quietly ignores them.
    const shown = present(await viewOf(tx, current));
    for (const [field, how] of Object.entries(OWNED_FIELDS)) {
      if (!(field in extra)) continue;
      if (canonicalJson(extra[field]) !== canonicalJson(shown[field] ?? null)) throw invalid(`body.${field} cannot be changed here: ${how}`);
      delete extra[field];
    }
    const next: ProjectRecord = {
      ...current,
      ...(timezone !== undefined && { timezone: timezone ?? null }),
      ...(companyId !== undefined && { companyId }),
      ...(agencyName !== undefined && { agencyName }),
      ...(callbacksHandledByHuman !== undefined && { callbacksHandledByHuman }),
      ...(multipleTimezoneCheck !== undefined && { multipleTimezoneCheck }),
      ...(businessName !== undefined && { businessName }),
      ...(businessNameOverridden !== undefined && { businessNameOverridden }),
      ...(callingWindowOverride !== undefined && { callingWindowOverride }),
      ...(knowledgeBase !== undefined && { knowledgeBase }),
      ...(smsCarrier !== undefined && { smsCarrier }),
      extra: { ...(current.extra ?? {}), ...extra },
    };
    if (active !== undefined && active !== current.active) {
      if (active && current.status !== 'disconnected') await assertSlotFree(tx, actor.agencyId);
      next.active = active;
      // A disconnected project stays disconnected: only a reconnect fixes the credential.
      if (current.status !== 'disconnected') next.status = active ? 'live' : 'stopped';
    }
    const saved = await tx.projects.save(next);
    // A stopped project's leads leave every queue.
    const stopped = current.active && !saved.active ? await projectStopped(tx, actor.agencyId, saved.id) : [];
    return { view: await viewOf(tx, saved), stopped };
  });
  stopInBackground(s, stopped, 'project_stopped');
  return view;
}

/**
 * Spec 3.1: a dead credential needs a reconnect, not a reinstall. The credential is verified
 * against the project's location first; storing it and moving the project back to live happen in
 * one transaction (which counts the plan slot).
 */
export async function reconnectProject(s: Services, actor: Actor, id: string, credentials: CredentialBody): Promise<ProjectView> {
  const before = await loadProject(s.store, actor, id);
  if (before.crm !== 'crm_a') throw invalid(`project ${before.id} is on ${before.crm}: only crm_a (GoHighLevel) locations can be connected with credentials so far`);
  const credential = toCredential(credentials);
  const location = await verifiedLocation(s, before.locationId, credential, `the project's location ${before.locationId}`);
  const view = await s.store.withTransaction(async (tx) => {
    const current = await loadProject(tx, actor, id, { forUpdate: true });
    const status = current.active ? 'live' : 'stopped';
    if (status === 'live' && current.status !== 'live') await assertSlotFree(tx, actor.agencyId);
    const { disconnectedReason: _d, ...rest } = current;
    await s.credentials.on(tx.credentials).put(actor.agencyId, current.id, 'gohighlevel', credential);
    const saved = await tx.projects.save({ ...rest, status, installed: true, crm_a: crmAOf(location), timezone: current.timezone ?? location.timezone });
    return viewOf(tx, saved);
  });
  return view;
}

/** Disconnects a project and hides it: its campaigns stop, its leads leave every queue. */
export async function deleteProject(s: Services, actor: Actor, id: string): Promise<ProjectRecord> {
  const at = new Date().toISOString();
  const { project, stopped } = await s.store.withTransaction(async (tx) => {
    const current = await loadProject(tx, actor, id, { forUpdate: true });
    await tx.projects.save({ ...current, active: false, status: 'disconnected', installed: false, uninstalledAt: at, deletedAt: at });
    // Its campaigns stop enrolling and dialling with it.
    for (const c of await tx.campaigns.listByProject(actor.agencyId, current.id)) if (c.active) await tx.campaigns.save({ ...c, active: false });
    return { project: current, stopped: await projectStopped(tx, actor.agencyId, current.id) };
  });
  stopInBackground(s, stopped, 'project_stopped');
  return project;
}
