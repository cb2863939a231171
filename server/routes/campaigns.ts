import { applyTemplate } from './workflow-tools.js';
import { findTemplate } from '../workflow-templates.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { CampaignRecord } from '../store/campaigns.js';
import { Campaign, CreateCampaignBody, PatchCampaignBody } from '../../schemas/campaign.js';
import { Id, ok } from '../../schemas/common.js';
import { loadProject } from './projects.js';
import { presentCampaign } from './present.js';
import { assertNotLastNumber } from './phone-numbers.js';
import { assertCampaignDialerSettings } from './power-dialer.js';
import { campaignStopped } from '../power-dialer/dialer.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;

const ProjectParams = { type: 'object', required: ['locationId'], properties: { locationId: Id } } as const;
const CampaignParams = { type: 'object', required: ['locationId', 'campaignId'], properties: { locationId: Id, campaignId: Id } } as const;

export function loadCampaign(s: Services, caller: Caller, locationId: string, campaignId: string): CampaignRecord {
  const project = loadProject(s, caller, locationId);
  const campaign = s.repos.campaigns.get(caller.agencyId, campaignId);
  if (!campaign || campaign.projectId !== project.id) throw notFound(`campaign ${campaignId} not found in project ${locationId}`);
  return campaign;
}

export function campaignRoutes(s: Services): RouteDef[] {
  const { campaigns, agents } = s.repos;
  const base = '/api/agent-builder/projects/:locationId/campaigns';
  return [
    defineRoute({
      method: 'get', path: base, operationId: 'listCampaigns', tag: 'Campaigns',
      summary: 'List the campaigns of a project',
      access: { scope: 'projects:read', roles: anyRole },
      params: ProjectParams,
      responses: { 200: { description: 'campaigns', schema: ok({ type: 'array', items: Campaign }) } },
      handler: ({ caller, params }) => {
        const project = loadProject(s, caller, params.locationId);
        return { success: true, data: campaigns.listByProject(caller.agencyId, project.id).map(presentCampaign) };
      },
    }),
    defineRoute({
      method: 'post', path: base, operationId: 'createCampaign', tag: 'Campaigns',
      summary: 'Create a campaign on an agent of the project',
      access: { scope: 'projects:write', roles: admin },
      params: ProjectParams, body: CreateCampaignBody, idempotent: true,
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: ({ caller, params, body }) => {
        const project = loadProject(s, caller, params.locationId);
        const agent = agents.get(caller.agencyId, body.agentId);
        if (!agent || agent.projectId !== project.id) throw notFound(`agent ${body.agentId} not found in project ${params.locationId}`);
        const dialing = body.dialing as CampaignRecord['dialing'] | undefined;
        const agentType = body.agentType;
        assertCampaignDialerSettings(s, caller.agencyId, body);
        const template = body.workflowTemplateId === undefined ? undefined : findTemplate(body.workflowTemplateId);
        if (body.workflowTemplateId !== undefined && !template) throw new AppError('VALIDATION', `body.workflowTemplateId "${body.workflowTemplateId}" is not a template; GET /api/agent-builder/workflow-templates lists them`);
        const created = campaigns.insert({
          agencyId: caller.agencyId,
          projectId: project.id,
          agentId: agent.id,
          name: body.name,
          activeTags: [...(body.activeTags ?? [])],
          inactiveTags: [...(body.inactiveTags ?? [])],
          dialing: dialing ?? (agent.agentType === 'inbound' ? null : 'pd'),
          agentType: agentType ?? null,
          fromNumbers: [...(body.fromNumbers ?? [])],
          active: body.active ?? false,
          ...(body.callingWindow !== undefined && { callingWindow: body.callingWindow }),
          ...(body.multipleTimezoneCheck !== undefined && { multipleTimezoneCheck: body.multipleTimezoneCheck }),
          ...(body.dropOutsideWindow !== undefined && { dropOutsideWindow: body.dropOutsideWindow }),
          config: { ...(body.config ?? {}) },
        });
        if (template) applyTemplate(s, caller.agencyId, { agent, campaign: created, project }, template, 0, caller.keyId);
        return { success: true, data: presentCampaign(created) };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/:campaignId`, operationId: 'getCampaign', tag: 'Campaigns',
      summary: 'Get a campaign',
      access: { scope: 'projects:read', roles: anyRole },
      params: CampaignParams,
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: ({ caller, params }) => ({ success: true, data: presentCampaign(loadCampaign(s, caller, params.locationId, params.campaignId)) }),
    }),
    defineRoute({
      method: 'patch', path: `${base}/:campaignId`, operationId: 'updateCampaign', tag: 'Campaigns',
      summary: 'Update a campaign; toggling `active` starts or stops enrolment and dialling',
      access: { scope: 'projects:write', roles: admin },
      params: CampaignParams, body: PatchCampaignBody,
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: ({ caller, params, body }) => {
        return s.db.transaction(() => {
          const current = loadCampaign(s, caller, params.locationId, params.campaignId);
          const dialing = body.dialing as CampaignRecord['dialing'] | undefined;
          const agentType = body.agentType;
          assertCampaignDialerSettings(s, caller.agencyId, body);
          if (body.agentId !== undefined) {
            const agent = agents.get(caller.agencyId, body.agentId);
            if (!agent || agent.projectId !== current.projectId) throw notFound(`agent ${body.agentId} not found in this project`);
          }
          const { dialing: _d, agentType: _t, config, ...rest } = body;
          const next: CampaignRecord = {
            ...current,
            ...(rest as Partial<CampaignRecord>),
            ...(dialing !== undefined && { dialing }),
            ...(agentType !== undefined && { agentType }),
            ...(config !== undefined && { config: { ...current.config, ...config } }),
          };
          if (body.fromNumbers !== undefined) assertNotLastNumber(current, next.fromNumbers);
          const saved = campaigns.save(next);
          // A stopped campaign's leads leave its queue.
          if (current.active && !saved.active) campaignStopped(s, caller.agencyId, saved.id);
          return { success: true, data: presentCampaign(saved) };
        }).immediate();
      },
    }),
  ];
}
