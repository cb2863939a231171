/**
 * OpenAPI `links`: from the operations that create something to the reads and writes that take its
 * id (project → campaign → agent → workflow → nodes; call event → call record), so a client (and
 * schemathesis's stateful phase) can walk real sequences instead of guessing ids. Keyed by the
 * operationId of the creating operation; each link names its target operation and where each of
 * its parameters comes from (a runtime expression).
 */
export interface OpenApiLink {
  operationId: string;
  parameters?: Record<string, string>;
  requestBody?: unknown;
  description?: string;
}

const project = '$response.body#/data/id';
const location = '$response.body#/data/locationId';
const agent = '$response.body#/data/id';

const agentLinks = (agentId: string): Record<string, OpenApiLink> => ({
  GetWorkflow: { operationId: 'getWorkflow', parameters: { agentId } },
  AppendVoicemailActions: { operationId: 'appendWorkflowNodes', parameters: { agentId, outcome: 'VOICEMAIL' } },
  ReplaceWorkflow: { operationId: 'replaceWorkflow', parameters: { agentId } },
  GetDigest: { operationId: 'getWorkflowDigest', parameters: { agentId } },
  ListVersions: { operationId: 'listWorkflowVersions', parameters: { agentId } },
  ListExecutions: { operationId: 'listWorkflowExecutions', parameters: { agentId } },
  StartTestRun: { operationId: 'startWorkflowTestRun', parameters: { agentId } },
  PreviewImpact: { operationId: 'previewWorkflowImpact', parameters: { agentId } },
});

export const RESPONSE_LINKS: Record<string, Record<string, Record<string, OpenApiLink>>> = {
  connectProject: {
    '200': {
      GetProject: { operationId: 'getProject', parameters: { id: project } },
      UpdateProject: { operationId: 'updateProject', parameters: { id: project } },
      ReconnectProject: { operationId: 'reconnectProject', parameters: { id: project } },
      DeleteProject: { operationId: 'deleteProject', parameters: { id: project } },
      ListCampaigns: { operationId: 'listCampaigns', parameters: { locationId: location } },
      CreateAgent: { operationId: 'createAgent', requestBody: { name: 'Front desk', agentType: 'outreach', locationId: location, capabilityIds: ['appointment_booking'] } },
      ListAgents: { operationId: 'listAgents', parameters: { locationId: location } },
    },
  },
  createAgent: {
    '200': {
      GetAgent: { operationId: 'getAgent', parameters: { id: agent } },
      UpdateAgent: { operationId: 'updateAgent', parameters: { id: agent } },
      GetSkills: { operationId: 'getSkillsLibrary', parameters: { id: agent } },
      CustomValues: { operationId: 'listCrmCustomValues', parameters: { id: agent } },
      CustomFields: { operationId: 'listCrmCustomFields', parameters: { id: agent } },
      Pipelines: { operationId: 'listCrmPipelines', parameters: { id: agent } },
      Calendars: { operationId: 'listCrmCalendars', parameters: { id: agent } },
      GetCampaign: { operationId: 'getCampaign', parameters: { locationId: '$response.body#/data/locationId', campaignId: '$response.body#/data/campaignId' } },
      UpdateCampaign: { operationId: 'updateCampaign', parameters: { locationId: '$response.body#/data/locationId', campaignId: '$response.body#/data/campaignId' } },
      BuyNumber: { operationId: 'buyPhoneNumber', requestBody: { campaignId: '$response.body#/data/campaignId', areaCode: 512 } },
      ...agentLinks(agent),
    },
  },
  createCampaign: {
    '200': {
      GetCampaign: { operationId: 'getCampaign', parameters: { locationId: '$request.path.locationId', campaignId: '$response.body#/data/id' } },
      UpdateCampaign: { operationId: 'updateCampaign', parameters: { locationId: '$request.path.locationId', campaignId: '$response.body#/data/id' } },
    },
  },
  appendWorkflowNodes: {
    '200': {
      DeleteFirstNode: { operationId: 'deleteWorkflowNode', parameters: { agentId: '$request.path.agentId', nodeId: '$response.body#/workflow/nodes/0/id' } },
      PointOutcomeAtIt: { operationId: 'switchWorkflowOutcome', parameters: { agentId: '$request.path.agentId', outcome: '$request.path.outcome' } },
      GetWorkflow: { operationId: 'getWorkflow', parameters: { agentId: '$request.path.agentId' } },
      GetVersion: { operationId: 'getWorkflowVersion', parameters: { agentId: '$request.path.agentId', version: '$response.body#/workflow/version' } },
    },
  },
  buyPhoneNumber: {
    '200': {
      AssignNumber: { operationId: 'assignPhoneNumber', parameters: { number: '$response.body#/phoneNumber/phoneNumber' } },
      RegisterNumber: { operationId: 'registerPhoneNumber', parameters: { number: '$response.body#/phoneNumber/phoneNumber' } },
    },
  },
  createCadence: {
    '200': {
      GetCadence: { operationId: 'getCadence', parameters: { id: '$response.body#/data/id' } },
      UpdateCadence: { operationId: 'updateCadence', parameters: { id: '$response.body#/data/id' } },
    },
  },
  enrolLead: {
    '200': {
      GetLead: { operationId: 'getLead', parameters: { leadId: '$response.body#/data/_id' } },
      RemoveLead: { operationId: 'removeLead', parameters: { leadId: '$response.body#/data/_id' } },
    },
  },
  receiveCallEvent: {
    '202': {
      GetCall: { operationId: 'getCallByCallId', parameters: { callId: '$response.body#/data/callId' }, description: 'the call record the event stored' },
      MarkReviewed: { operationId: 'markCallReviewed', parameters: { callId: '$response.body#/data/callId' } },
    },
  },
  startWorkflowTestRun: {
    '202': {
      GetTestRun: { operationId: 'getWorkflowExecution', parameters: { agentId: '$request.path.agentId', executionId: '$response.body#/data/id' } },
    },
  },
  retryWorkflowExecution: {
    '202': {
      GetRetry: { operationId: 'getWorkflowExecution', parameters: { agentId: '$request.path.agentId', executionId: '$response.body#/data/id' } },
    },
  },
};
