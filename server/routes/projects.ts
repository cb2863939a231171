import { CAMPAIGN_SYSTEMS } from '../catalog.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import { assertProjectAccess, canAccessProject } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { ProjectRecord } from '../store/projects.js';
import { IdParams, ok } from '../../schemas/common.js';
import { CreateProjectBody, Project, UpdateProjectBody } from '../../schemas/project.js';
import { CampaignSystem, CampaignProjectSummary } from '../../schemas/catalog.js';
import { presentProject } from './present.js';
import { assertWindowsUsable } from './power-dialer.js';
import { projectStopped } from '../power-dialer/dialer.js';

const admin = ['agency_admin'] as const;
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
    throw new AppError('CONFLICT', `project ${project.id} is disconnected from its CRM: reconnect it before using CRM data`);
  }
}

export function projectRoutes(s: Services): RouteDef[] {
  const { projects, campaigns, agencies } = s.repos;
  const present = (p: ProjectRecord) => presentProject(p, campaigns.listByProject(p.agencyId, p.id));

  function assertSlotFree(agencyId: string) {
    const agency = agencies.get(agencyId)!;
    if (projects.countLive(agencyId) >= agency.planLimit) {
      throw new AppError('CONFLICT', `the agency's plan allows ${agency.planLimit} live projects; stop one first or upgrade the plan`, {
        detailCode: 'SubAccountCapReached',
      });
    }
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
      access: { scope: 'projects:write', roles: admin },
      body: CreateProjectBody, idempotent: true,
      responses: { 200: { description: 'the connected project', schema: ok(Project) } },
      handler: ({ caller, body }) => {
        if (projects.find(caller.agencyId, body.locationId)) {
          throw new AppError('CONFLICT', `location ${body.locationId} is already connected as a project`);
        }
        if (body.crm === 'crm_b' && !body.crm_b) throw new AppError('VALIDATION', 'body.crm_b is required when crm is crm_b');
        assertWindowsUsable(body.callingWindowOverride, 'body.callingWindowOverride');
        const active = body.active ?? true;
        if (active) assertSlotFree(caller.agencyId);
        const agency = agencies.get(caller.agencyId)!;
        const { crm_a, crm_b, active: _a, ...rest } = body;
        const project = projects.insert({
          ...rest,
          agencyId: caller.agencyId,
          timezone: body.timezone ?? null,
          agencyName: body.agencyName ?? agency.name,
          businessName: body.businessName ?? crm_a?.name ?? crm_b?.accountName ?? null,
          active,
          status: active ? 'live' : 'stopped',
          installed: true,
          ...(body.crm === 'crm_a' ? { crm_a: { id: body.locationId, ...(crm_a ?? {}) } as Record<string, string | null> } : {}),
          ...(body.crm === 'crm_b' && crm_b ? { crm_b } : {}),
        });
        return { success: true, data: present(project) };
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
          const { agencyName, active, callbacksHandledByHuman, multipleTimezoneCheck, businessName, businessNameOverridden, callingWindowOverride, knowledgeBase, ...extra } = body as Record<string, unknown> & typeof body;
          assertWindowsUsable(callingWindowOverride, 'body.callingWindowOverride');
          // Fields the server owns cannot be overwritten through the open-ended body.
          for (const k of ['id', 'agencyId', 'crm', 'locationId', 'status', 'installed', 'campaigns', 'createdAt', 'updatedAt', 'crm_a', 'crm_b', 'uninstalledAt']) delete extra[k];
          const next: ProjectRecord = {
            ...current,
            ...(agencyName !== undefined && { agencyName }),
            ...(callbacksHandledByHuman !== undefined && { callbacksHandledByHuman }),
            ...(multipleTimezoneCheck !== undefined && { multipleTimezoneCheck }),
            ...(businessName !== undefined && { businessName }),
            ...(businessNameOverridden !== undefined && { businessNameOverridden }),
            ...(callingWindowOverride !== undefined && { callingWindowOverride }),
            ...(knowledgeBase !== undefined && { knowledgeBase }),
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
