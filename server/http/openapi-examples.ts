/**
 * One example request body per operation that takes a body, in the OpenAPI document (so client
 * generators and schemathesis's examples phase use realistic requests). Keyed by operationId; the
 * deprecated project-scoped twins share their agent-scoped operation's example. Every example is
 * validated against its operation's body schema by test/api/openapi.test.ts, and a client
 * generated from the document type-checks a call with each (test/api/openapi-client.test.ts).
 */
const workflowGraph = {
  nodes: [
    { id: 'n1', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, sorry we missed you! Call us back.' }, position: { x: 0, y: 0 } },
    { id: 'n2', type: 'add-tag', config: { tags: ['vm-left'] }, position: { x: 0, y: 140 } },
  ],
  edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
  dispositionEntries: { VOICEMAIL: 'n1' },
};
const window = { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' };

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  connectProject: { crm: 'crm_a', locationId: 've9EPM428h8vShlRW1KT', credentials: { token: 'pit-2b7c0e6a-1f44-4c7b-9d3e-8f0a1b2c3d4e' } },
  updateProject: { active: true, businessName: 'Bright Smile Dental', callingWindowOverride: window },
  reconnectProject: { credentials: { token: 'pit-2b7c0e6a-1f44-4c7b-9d3e-8f0a1b2c3d4e' } },
  createAgent: { name: 'Front desk', agentType: 'outreach', locationId: 've9EPM428h8vShlRW1KT', capabilityIds: ['appointment_booking'], workflowTemplateId: 'appointment-booking' },
  updateAgent: { name: 'Front desk (evenings)', postCallFields: [{ name: 'insurance_provider', type: 'text', description: 'the patient’s insurer' }] },
  createCampaign: { name: 'New patient follow-up', agentId: 'agt_7Yk2', activeTags: ['new-lead'], inactiveTags: ['do-not-call'], dialing: 's2l_pd', callingWindow: window, config: { cadenceId: 'cad_3hQe' } },
  updateCampaign: { active: true, activeTags: ['new-lead'], fromNumbers: ['+15125550100'] },
  buyPhoneNumber: { campaignId: 'cmp_9PzX', areaCode: 512, countryCode: 'US' },
  assignPhoneNumber: { campaignId: 'cmp_9PzX' },
  registerPhoneNumber: { nickname: 'Main line', vapiPhoneNumberId: 'd1a2b3c4-0000-4000-8000-0000000000f1' },
  markCallReviewed: { reviewed: true },
  createCadence: { name: 'Call now, in 4 hours, next day at 10', steps: [{ delayMinutes: 0 }, { delayMinutes: 240 }, { delayMinutes: 1440, at: '10:00' }] },
  updateCadence: { name: 'Three tries' },
  enrolLead: { campaignId: 'cmp_9PzX', contact: { id: 'ct_42', firstName: 'Ana', lastName: 'Lopez', phone: '+15125550123', tags: ['new-lead'] } },
  appendWorkflowNodes: { nodes: [{ type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, sorry we missed you!' } }, { type: 'add-tag', config: { tags: ['vm-left'] } }], expectedVersion: 6 },
  replaceWorkflow: { ...workflowGraph, expectedVersion: 6 },
  patchWorkflow: { nodes: [{ id: 'n1', config: { body: 'Hi {{contact.firstName}}, this is {{custom_values.business_name}}.' } }], expectedVersion: 7 },
  switchWorkflowOutcome: { nodeId: 'n2', expectedVersion: 7 },
  receiveCallEvent: {
    type: 'call.ended',
    call: { callId: 'call_8f2k', campaignId: 'cmp_9PzX', contactId: 'ct_42', phoneNumber: '+15125550123', dateTime: '2026-11-23T15:04:05Z', disposition: 'VOICEMAIL', duration: 42, callSummary: 'Left a voicemail.' },
  },
  receiveContactEvent: { type: 'contact.updated', contact: { id: 'ct_42', locationId: 've9EPM428h8vShlRW1KT', firstName: 'Ana', phone: '+15125550123', tags: ['new-lead'] } },
  updateAgency: { smsCarrier: 'crm', alertWebhookUrl: 'https://ops.agency.example/hooks/voice-alerts', alertEmail: 'ops@agency.example' },
  putTwilioCredentials: { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f' },
  putVapiCredentials: { apiKey: 'a1b2c3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d', secretKind: 'hmac' },
  rotateSigningSecret: { graceSeconds: 3600 },
  receiveVapiServerMessage: { message: { type: 'status-update', status: 'in-progress' } },
  startWorkflowTestRun: { outcome: 'SUCCESS', fields: { appointment_time: '2026-12-01T15:00:00Z' }, contact: { firstName: 'Ana', phone: '+15125550123' } },
  previewWorkflowImpact: workflowGraph,
  startWorkflowReplay: { fromVersion: 6, graph: workflowGraph, days: 7, limit: 200 },
  applyWorkflowTemplate: { expectedVersion: 0 },
  retryFailedRuns: { executionIds: ['exe_4nQ2', 'exe_7Jr9'] },
  createApiKey: { name: 'Reporting dashboard', role: 'project_user', scopes: ['calls:read', 'projects:read'], projectIds: ['prj_7Lk2'], expiresAt: '2027-06-30T00:00:00Z' },
};

/** The example of an operation's body (project-scoped twins share theirs). */
export function requestExample(operationId: string): unknown {
  return REQUEST_EXAMPLES[operationId.replace(/ProjectScoped$/, '')];
}
