import { defineRoute, type RouteDef } from '../http/route.js';
import { presentCampaign } from '../http/present.js';
import type { Services } from '../services.js';
import { Campaign, CreateCampaignBody, PatchCampaignBody } from '../../schemas/campaign.js';
import { Id, ok } from '../../schemas/common.js';
import { createCampaign, listCampaigns, loadCampaign, updateCampaign } from '../domain/campaigns.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;

const ProjectParams = { type: 'object', required: ['locationId'], properties: { locationId: Id } } as const;
const CampaignParams = { type: 'object', required: ['locationId', 'campaignId'], properties: { locationId: Id, campaignId: Id } } as const;

export function campaignRoutes(_s: Services): RouteDef[] {
  const base = '/api/agent-builder/projects/:locationId/campaigns';
  return [
    defineRoute({
      method: 'get', path: base, operationId: 'listCampaigns', tag: 'Campaigns',
      summary: 'List the campaigns of a project',
      access: { scope: 'projects:read', roles: anyRole },
      params: ProjectParams,
      responses: { 200: { description: 'campaigns', schema: ok({ type: 'array', items: Campaign }) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: (await listCampaigns(services.store, caller, params.locationId)).map(presentCampaign) }),
    }),
    defineRoute({
      method: 'post', path: base, operationId: 'createCampaign', tag: 'Campaigns',
      summary: 'Create a campaign on an agent of the project',
      access: { scope: 'projects:write', roles: admin },
      params: ProjectParams, body: CreateCampaignBody, idempotent: 'atomic',
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: presentCampaign(await createCampaign(services.store, caller, params.locationId, body)) }),
    }),
    defineRoute({
      method: 'get', path: `${base}/:campaignId`, operationId: 'getCampaign', tag: 'Campaigns',
      summary: 'Get a campaign',
      access: { scope: 'projects:read', roles: anyRole },
      params: CampaignParams,
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: presentCampaign(await loadCampaign(services.store, caller, params.locationId, params.campaignId)) }),
    }),
    defineRoute({
      method: 'patch', path: `${base}/:campaignId`, operationId: 'updateCampaign', tag: 'Campaigns',
      summary: 'Update a campaign; toggling `active` starts or stops enrolment and dialling',
      access: { scope: 'projects:write', roles: admin },
      params: CampaignParams, body: PatchCampaignBody,
      responses: { 200: { description: 'the campaign', schema: ok(Campaign) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: presentCampaign(await updateCampaign(services, caller, params.locationId, params.campaignId, body)) }),
    }),
  ];
}
