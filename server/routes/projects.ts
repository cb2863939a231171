import { CAMPAIGN_SYSTEMS } from '../catalog.js';
import { canonicalJson } from '../http/idempotency.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import { assertProjectAccess, canAccessProject } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { ProjectRecord } from '../store/projects.js';
import { IdParams, ok } from '../../schemas/common.js';
import { CreateProjectBody, Project, ReconnectProjectBody, UpdateProjectBody } from '../../schemas/project.js';
import { CredentialRejectedError, type LocationInfo } from '../../engine/ports.js';
import type { GohighlevelCredential } from '../providers/credentials.js';
import { VENDOR_UNAVAILABLE, vendorFailure } from '../providers/vendor-errors.js';
import { VendorRefusedError } from '../adapters/vendor-http.js';
import { CampaignSystem, CampaignProjectSummary } from '../../schemas/catalog.js';
import { presentProject } from './present.js';
import { assertWindowsUsable } from './power-dialer.js';
import { projectStopped } from '../power-dialer/dialer.js';

const admin = ['agency_admin'] as const;

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
const anyRole = ['agency_admin', 'project_user'] as const;

/** Shared by every route that names a project: another agency's project is 404, never 403. */
export function loadProject(s: Services, caller: Caller, idOrLocation: string): ProjectRecord {
  const project = s.repos.projects.find(caller.agencyId, idOrLocation);
  if (!project) throw notFound(`project ${idOrLocation} not found`);
  assertProjectAccess(caller, project.id);
  return project;
}

/** A project whose CRM credential stopped working cannot serve anything that needs the CRM. */
export function assertCrmUsable(project: ProjectRecord): void {
  if (project.status === 'disconnected' || !project.installed) {
    const why = project.disconnectedReason ? ` (${project.disconnectedReason})` : '';
    throw new AppError('CONFLICT', `project ${project.id} is disconnected from its CRM${why}: reconnect it (POST /api/v2/projects/${project.id}/reconnect) before using CRM data`, { detailCode: 'Disconnected' });
  }
}

type CredentialBody = { token: string } | { accessToken: string; refreshToken: string; expiresAt: string };
const toCredential = (c: CredentialBody): GohighlevelCredential => ('token' in c ? { kind: 'private-integration', token: c.token } : { kind: 'oauth', ...c });

/** The spec's `crm_a` object (2.1) from the real location. */
const crmAOf = (l: LocationInfo): Record<string, string | null> => ({
  id: l.id, name: l.name, timezone: l.timezone, country: l.country, phone: l.phone, address: l.address, city: l.city, state: l.state, postalCode: l.postalCode, email: l.email, website: l.website,
});

export function projectRoutes(s: Services): RouteDef[] {
  const { projects, campaigns, agencies } = s.repos;
  const present = (p: ProjectRecord) => presentProject(p, campaigns.listByProject(p.agencyId, p.id));

  function assertTwilioSet(agencyId: string, field: string) {
    if (!s.credentials.list(agencyId).some((c) => c.owner === 'agency' && c.provider === 'twilio')) {
      throw new AppError('CONFLICT', `${field} "twilio" needs the agency's Twilio credentials first (PUT /api/agency/credentials/twilio)`, { detailCode: 'CredentialsMissing' });
    }
  }

  function assertSlotFree(agencyId: string) {
    const agency = agencies.get(agencyId)!;
    if (projects.countLive(agencyId) >= agency.planLimit) {
      throw new AppError('CONFLICT', `the agency's plan allows ${agency.planLimit} live projects; stop one first or upgrade the plan`, {
        detailCode: 'SubAccountCapReached',
      });
    }
  }

  /**
   * Checks a credential against the location it is for, and reads that location (spec 2.1's crm_a).
   * A refused token is the caller's input being wrong: a 400 naming the field. So is a read that
   * answers another location: the token belongs to that one, and every later call would act there
   * while the project names this one.
   */
  async function verifiedLocation(locationId: string, credential: GohighlevelCredential, named = `body.locationId ${locationId}`): Promise<LocationInfo> {
    let location: LocationInfo;
    try {
      location = await s.providers.verifyGohighlevel(locationId, credential);
    } catch (err) {
      if (err instanceof CredentialRejectedError) throw new AppError('VALIDATION', `body.credentials was rejected by GoHighLevel for location ${locationId}: ${err.message}`);
      if (err instanceof VendorRefusedError && (err.status === 404 || err.status === 400 || err.status === 422)) {
        throw new AppError('VALIDATION', `body.locationId ${locationId} could not be read with these credentials: ${err.vendorMessage}`);
      }
      throw vendorFailure(err, 'verifying the CRM credentials');
    }
    if (location.id !== locationId) {
      throw new AppError(
        'VALIDATION',
        `body.credentials belong to location ${location.id}, not to ${named}: GoHighLevel answered the location read with that location's id. Send the token of location ${locationId}`,
      );
    }
    return location;
  }

  function connect(caller: Caller, body: CreateProjectBody, location: LocationInfo | null, credential: GohighlevelCredential | null) {
    if (projects.find(caller.agencyId, body.locationId)) {
      throw new AppError('CONFLICT', `location ${body.locationId} is already connected as a project`, { detailCode: 'AlreadyConnected' });
    }
    const active = body.active ?? true;
    if (active) assertSlotFree(caller.agencyId);
    const agency = agencies.get(caller.agencyId)!;
    const { crm_a, crm_b, active: _a, credentials: _c, ...rest } = body;
    const real = location ? crmAOf(location) : null;
    const project = projects.insert({
      ...rest,
      agencyId: caller.agencyId,
      timezone: body.timezone ?? real?.timezone ?? null,
      agencyName: body.agencyName ?? agency.name,
      businessName: body.businessName ?? real?.name ?? crm_a?.name ?? crm_b?.accountName ?? null,
      active,
      status: active ? 'live' : 'stopped',
      installed: true,
      ...(body.crm === 'crm_a' ? { crm_a: real ?? ({ id: body.locationId, ...(crm_a ?? {}) } as Record<string, string | null>) } : {}),
      ...(body.crm === 'crm_b' && crm_b ? { crm_b } : {}),
    });
    if (credential) s.credentials.put(caller.agencyId, project.id, 'gohighlevel', credential);
    return { success: true, data: present(project) };
  }

  return [
    defineRoute({
      method: 'get', path: '/api/v2/projects/systems', operationId: 'listCampaignSystems', tag: 'Projects',
      summary: 'List campaign systems (the legacy templates and the outcomes each can emit)',
      access: { scope: 'projects:read', roles: admin },
      responses: { 200: { description: 'campaign systems', schema: ok({ type: 'array', items: CampaignSystem }) } },
      handler: () => ({ success: true, data: CAMPAIGN_SYSTEMS }),
    }),
    defineRoute({
      method: 'post', path: '/api/v2/projects', operationId: 'connectProject', tag: 'Projects',
      summary: 'Connect a CRM location as a project (install)',
      description:
        'With `credentials` (crm_a: a GoHighLevel Private Integration token or OAuth tokens) the token is verified against the location, ' +
        '`crm_a`, `timezone` and `businessName` are filled from the real location, and post-call actions act on it. Without them the project ' +
        'runs on the embedded sandbox CRM. Credentials are stored sealed (AES-256-GCM) and never returned.',
      access: { scope: 'projects:write', roles: admin },
      body: CreateProjectBody, idempotent: true,
      responses: { 200: { description: 'the connected project', schema: ok(Project) }, 503: VENDOR_UNAVAILABLE },
      handler: ({ caller, body }) => {
        assertWindowsUsable(body.callingWindowOverride, 'body.callingWindowOverride');
        if (body.smsCarrier === 'twilio') assertTwilioSet(caller.agencyId, 'body.smsCarrier');
        // Without credentials: the sandbox CRM, synchronously (inside the idempotency transaction).
        if (!body.credentials) return connect(caller, body, null, null);
        const credential = toCredential(body.credentials as CredentialBody);
        return verifiedLocation(body.locationId, credential).then((location) => s.db.transaction(() => connect(caller, body, location, credential)).immediate());
      },
    }),
    defineRoute({
      method: 'get', path: '/api/v2/projects', operationId: 'listProjects', tag: 'Projects',
      summary: 'List the projects the key can see',
      access: { scope: 'projects:read', roles: anyRole },
      responses: { 200: { description: 'projects', schema: ok({ type: 'array', items: Project }) } },
      handler: ({ caller }) => ({
        success: true,
        data: projects.list(caller.agencyId).filter((p) => canAccessProject(caller, p.id)).map(present),
      }),
    }),
    defineRoute({
      method: 'get', path: '/api/v2/projects/:id', operationId: 'getProject', tag: 'Projects',
      summary: 'Get a project by id or CRM location id',
      access: { scope: 'projects:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'the project', schema: ok(Project) } },
      handler: ({ caller, params }) => ({ success: true, data: present(loadProject(s, caller, params.id)) }),
    }),
    defineRoute({
      method: 'put', path: '/api/v2/projects/:id', operationId: 'updateProject', tag: 'Projects',
      summary: 'Update a project; `active` moves it between live and stopped (spec 3.1)',
      access: { scope: 'projects:write', roles: admin },
      params: IdParams, body: UpdateProjectBody,
      responses: { 200: { description: 'the updated project', schema: ok(Project) } },
      handler: ({ caller, params, body }) => {
        return s.db.transaction(() => {
          const current = loadProject(s, caller, params.id);
          const { agencyName, active, callbacksHandledByHuman, multipleTimezoneCheck, businessName, businessNameOverridden, callingWindowOverride, knowledgeBase, smsCarrier, timezone, companyId, ...extra } = body as Record<string, unknown> & typeof body;
          assertWindowsUsable(callingWindowOverride, 'body.callingWindowOverride');
          if (smsCarrier === 'twilio') assertTwilioSet(caller.agencyId, 'body.smsCarrier');
          // Spec 2.1 fields the server owns: sent back as they are (a read-modify-write client), they
          // change nothing and are accepted; sent with another value, they are refused by name, never
          // a 200 that quietly ignores them.
          const shown = present(current) as Record<string, unknown>;
          for (const [field, how] of Object.entries(OWNED_FIELDS)) {
            if (!(field in extra)) continue;
            if (canonicalJson(extra[field]) !== canonicalJson(shown[field] ?? null)) throw new AppError('VALIDATION', `body.${field} cannot be changed here: ${how}`);
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
            if (active && current.status !== 'disconnected') assertSlotFree(caller.agencyId);
            next.active = active;
            // A disconnected project stays disconnected: only a reconnect fixes the credential.
            if (current.status !== 'disconnected') next.status = active ? 'live' : 'stopped';
          }
          const saved = projects.save(next);
          // A stopped project's leads leave every queue.
          if (current.active && !saved.active) projectStopped(s, caller.agencyId, saved.id);
          return { success: true, data: present(saved) };
        }).immediate();
      },
    }),
    defineRoute({
      method: 'post', path: '/api/v2/projects/:id/reconnect', operationId: 'reconnectProject', tag: 'Projects',
      summary: 'Reconnect a project with new CRM credentials (spec 3.1: a dead credential needs a reconnect, not a reinstall)',
      description:
        'Verifies the credentials against the project\'s location, stores them (sealed), fills `crm_a` from the location and moves a ' +
        '`disconnected` project back to `live` (or `stopped` when it is not active). Campaigns, agents, workflows and history are kept; runs ' +
        'that failed because the credential was refused can then be retried from their failed step. Also turns a sandbox project into one on the real location. ' +
        'The body is the credentials alone: the project keeps its CRM and location (another location is another project, POST /api/v2/projects).',
      access: { scope: 'projects:write', roles: admin },
      params: IdParams, body: ReconnectProjectBody,
      responses: { 200: { description: 'the reconnected project', schema: ok(Project) }, 503: VENDOR_UNAVAILABLE },
      handler: async ({ caller, params, body }) => {
        const before = loadProject(s, caller, params.id);
        if (before.crm !== 'crm_a') throw new AppError('VALIDATION', `project ${before.id} is on ${before.crm}: only crm_a (GoHighLevel) locations can be connected with credentials so far`);
        const credential = toCredential(body.credentials as CredentialBody);
        const location = await verifiedLocation(before.locationId, credential, `the project's location ${before.locationId}`);
        const saved = s.db.transaction(() => {
          const current = loadProject(s, caller, params.id);
          const status = current.active ? 'live' : 'stopped';
          if (status === 'live' && current.status !== 'live') assertSlotFree(caller.agencyId);
          const { disconnectedReason: _d, ...rest } = current;
          s.credentials.put(caller.agencyId, current.id, 'gohighlevel', credential);
          return projects.save({ ...rest, status, installed: true, crm_a: crmAOf(location), timezone: current.timezone ?? location.timezone });
        }).immediate();
        s.providers.forget(caller.agencyId, saved.locationId, saved.id);
        return { success: true, data: present(saved) };
      },
    }),
    defineRoute({
      method: 'delete', path: '/api/v2/projects/:id', operationId: 'deleteProject', tag: 'Projects',
      summary: 'Disconnect a project and hide it from the workspace',
      access: { scope: 'projects:delete', roles: admin },
      params: IdParams,
      responses: { 200: { description: 'deleted', schema: { type: 'object', required: ['success', 'message'], properties: { success: { const: true }, message: { type: 'string' } } } } },
      handler: ({ caller, params }) => {
        const current = loadProject(s, caller, params.id);
        const at = new Date().toISOString();
        s.db.transaction(() => {
          projects.save({ ...current, active: false, status: 'disconnected', installed: false, uninstalledAt: at, deletedAt: at });
          // Its campaigns stop enrolling and dialling with it.
          for (const c of campaigns.listByProject(caller.agencyId, current.id)) if (c.active) campaigns.save({ ...c, active: false });
          projectStopped(s, caller.agencyId, current.id);
        })();
        return { success: true, message: `project ${current.id} was disconnected and removed from the workspace` };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/projects', operationId: 'listCampaignProjects', tag: 'Projects',
      summary: 'List the visible projects that can contain campaigns',
      access: { scope: 'projects:read', roles: admin },
      responses: { 200: { description: 'project summaries', schema: { type: 'object', required: ['success', 'projects'], properties: { success: { const: true }, projects: { type: 'array', items: CampaignProjectSummary } } } } },
      handler: ({ caller }) => ({
        success: true,
        projects: projects.list(caller.agencyId).map((p) => ({
          projectId: p.id,
          locationId: p.locationId,
          businessName: p.businessName ?? '',
          agencyName: p.agencyName ?? '',
          campaignCount: campaigns.listByProject(caller.agencyId, p.id).length,
        })),
      }),
    }),
  ];
}
