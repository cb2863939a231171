import { CAMPAIGN_SYSTEMS } from '../catalog.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { presentProject } from '../http/present.js';
import type { Services } from '../services.js';
import { IdParams, ok } from '../../schemas/common.js';
import { CreateProjectBody, Project, ReconnectProjectBody, UpdateProjectBody } from '../../schemas/project.js';
import { VENDOR_UNAVAILABLE } from '../http/vendor-unavailable.js';
import { CampaignSystem, CampaignProjectSummary } from '../../schemas/catalog.js';
import { campaignProjects, connectProject, deleteProject, listProjects, loadProject, reconnectProject, updateProject, viewOf, type ProjectView } from '../domain/projects.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;

const present = (v: ProjectView) => presentProject(v.project, v.campaigns);

export function projectRoutes(_s: Services): RouteDef[] {
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
      // With credentials the location is read from the CRM before anything is stored (a claim); without, atomic.
      body: CreateProjectBody, idempotent: (input) => ((input.body as { credentials?: unknown }).credentials ? 'claim' : 'atomic'),
      responses: { 200: { description: 'the connected project', schema: ok(Project) }, 503: VENDOR_UNAVAILABLE },
      handler: async ({ caller, body, services }) => ({ success: true, data: present(await connectProject(services, caller, body)) }),
    }),
    defineRoute({
      method: 'get', path: '/api/v2/projects', operationId: 'listProjects', tag: 'Projects',
      summary: 'List the projects the key can see',
      access: { scope: 'projects:read', roles: anyRole },
      responses: { 200: { description: 'projects', schema: ok({ type: 'array', items: Project }) } },
      handler: async ({ caller, services }) => ({ success: true, data: (await listProjects(services.store, caller)).map(present) }),
    }),
    defineRoute({
      method: 'get', path: '/api/v2/projects/:id', operationId: 'getProject', tag: 'Projects',
      summary: 'Get a project by id or CRM location id',
      access: { scope: 'projects:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'the project', schema: ok(Project) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: present(await viewOf(services.store, await loadProject(services.store, caller, params.id))) }),
    }),
    defineRoute({
      method: 'put', path: '/api/v2/projects/:id', operationId: 'updateProject', tag: 'Projects',
      summary: 'Update a project; `active` moves it between live and stopped (spec 3.1)',
      access: { scope: 'projects:write', roles: admin },
      params: IdParams, body: UpdateProjectBody,
      responses: { 200: { description: 'the updated project', schema: ok(Project) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: present(await updateProject(services, caller, params.id, body, present)) }),
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
      handler: async ({ caller, params, body, services }) => ({ success: true, data: present(await reconnectProject(services, caller, params.id, body.credentials as never)) }),
    }),
    defineRoute({
      method: 'delete', path: '/api/v2/projects/:id', operationId: 'deleteProject', tag: 'Projects',
      summary: 'Disconnect a project and hide it from the workspace',
      access: { scope: 'projects:delete', roles: admin },
      params: IdParams,
      responses: { 200: { description: 'deleted', schema: { type: 'object', required: ['success', 'message'], properties: { success: { const: true }, message: { type: 'string' } } } } },
      handler: async ({ caller, params, services }) => {
        const project = await deleteProject(services, caller, params.id);
        return { success: true, message: `project ${project.id} was disconnected and removed from the workspace` };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/projects', operationId: 'listCampaignProjects', tag: 'Projects',
      summary: 'List the visible projects that can contain campaigns',
      access: { scope: 'projects:read', roles: admin },
      responses: { 200: { description: 'project summaries', schema: { type: 'object', required: ['success', 'projects'], properties: { success: { const: true }, projects: { type: 'array', items: CampaignProjectSummary } } } } },
      handler: async ({ caller, services }) => ({ success: true, projects: await campaignProjects(services.store, caller) }),
    }),
  ];
}
