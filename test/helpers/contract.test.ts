/**
 * The contract helper checks every response of the API tests; here, the helper itself: the bodies
 * spec sections 1 and 7 (and docs/decisions.md, "Error bodies") rule out must be refused, and the
 * ones they describe accepted, so a lenient helper cannot let a drifting server through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContract, errorEnvelopeViolation, successEnvelopeViolation } from './contract.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const JSON_TYPE = 'application/json; charset=utf-8';
const check = (method: string, url: string, status: number, body: unknown, contentType: string | null = JSON_TYPE) =>
  checkContract(h.services, method, url, status, body, contentType);

describe('error envelopes (spec 7)', () => {
  it('accepts each family as the spec writes it', () => {
    expect(check('GET', '/api/agent-builder/agents/agt_x', 404, { success: false, error: 'NotFound', message: 'agent agt_x not found' })).toBeNull();
    expect(check('PUT', '/api/v2/projects/p1', 409, { success: false, error: 'CONFLICT', message: 'plan limit', code: 'SubAccountCapReached' })).toBeNull();
    expect(check('PUT', '/api/v2/projects/p1', 404, { success: false, message: 'project p1 not found' })).toBeNull();
    expect(check('PUT', '/api/v2/projects/p1', 400, { success: false, error: 'VALIDATION', message: 'body.active must be boolean' })).toBeNull();
    expect(check('GET', '/api/power-dialer/pipeline/leads', 400, { success: false, error: 'cadenceStep is required' })).toBeNull();
    expect(check('GET', '/api/power-dialer/pipeline/leads', 401, { success: false, error: 'Unauthorized' })).toBeNull();
    expect(check('GET', '/api/power-dialer/pipeline/leads', 500, { success: false, error: 'An unexpected server error occurred' })).toBeNull();
    // an unknown path is still in its family's envelope
    expect(check('GET', '/api/no-such-thing', 404, { success: false, error: 'NotFound', message: 'no route for GET /api/no-such-thing' })).toBeNull();
    expect(check('POST', '/api/events/calls', 413, { success: false, error: 'PayloadTooLarge', message: 'request body is too large' })).toBeNull();
  });

  const refused: [string, string, number, unknown][] = [
    // standard family: the exact error word for the status
    ['GET', '/api/agent-builder/agents/agt_x', 404, { success: false, error: 'NOT_FOUND', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 409, { success: false, error: 'Conflict', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 400, { success: false, error: 'ValidationError', message: 'x' }],
    ['GET', '/api/call-history/by-call-id/c1', 403, { success: false, error: 'Unauthorized', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 500, { success: false, error: 'Internal', message: 'x' }],
    ['POST', '/api/events/calls', 503, { success: false, error: 'Unavailable', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 415, { success: false, error: 'VALIDATION', message: 'x' }],
    // standard family: message required, nothing beyond success, error, message, code
    ['POST', '/api/agent-builder/agents', 400, { success: false, error: 'VALIDATION' }],
    ['POST', '/api/agent-builder/agents', 400, { success: false, error: 'VALIDATION', message: '' }],
    ['POST', '/api/agent-builder/agents', 400, { success: false, error: 'VALIDATION', message: 'x', details: [] }],
    ['POST', '/api/agent-builder/agents', 400, { success: false, error: 'VALIDATION', message: 'x', stack: 'at foo' }],
    ['POST', '/api/agent-builder/agents', 409, { success: false, error: 'CONFLICT', message: 'x', code: 7 }],
    ['POST', '/api/agent-builder/agents', 400, { success: true, error: 'VALIDATION', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 400, { error: 'VALIDATION', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 400, 'Bad Request'],
    // a status outside the table
    ['POST', '/api/agent-builder/agents', 418, { success: false, error: 'Teapot', message: 'x' }],
    ['POST', '/api/agent-builder/agents', 422, { success: false, error: 'VALIDATION', message: 'x' }],
    // project 404: message only
    ['GET', '/api/v2/projects/p1', 404, { success: false, error: 'NotFound', message: 'x' }],
    ['DELETE', '/api/v2/projects/p1', 404, { success: false, error: 'NotFound' }],
    ['GET', '/api/v2/projects/p1', 404, { success: false, message: 'x', code: 'Gone' }],
    // other project statuses use the standard body
    ['PUT', '/api/v2/projects/p1', 400, { success: false, message: 'x' }],
    ['PUT', '/api/v2/projects/p1', 409, { success: false, error: 'Conflict', message: 'x', code: 'SubAccountCapReached' }],
    // power dialer: { success, error } only, error the text itself, fixed words for 401 and 429
    ['GET', '/api/power-dialer/pipeline/leads', 400, { success: false, error: 'VALIDATION', message: 'cadenceStep is required' }],
    ['GET', '/api/power-dialer/pipeline/leads', 400, { success: false, error: 'VALIDATION' }],
    ['GET', '/api/power-dialer/pipeline/leads', 400, { success: false, message: 'cadenceStep is required' }],
    ['GET', '/api/power-dialer/pipeline/leads', 401, { success: false, error: 'missing API key' }],
    ['GET', '/api/power-dialer/pipeline/leads', 403, { success: false, error: 'Forbidden' }],
    ['GET', '/api/power-dialer/pipeline/leads', 429, { success: false, error: 'Too many requests' }],
    ['GET', '/api/power-dialer/pipeline/leads', 500, { success: false, error: 'InternalError' }],
    ['GET', '/api/power-dialer/pipeline/leads', 403, { success: false, error: 'no access', code: 'X' }],
    ['GET', '/api/power-dialer/pipeline/leads', 400, { success: false, error: '' }],
    // unknown paths too
    ['GET', '/api/no-such-thing', 404, { success: false, message: 'no route' }],
    ['GET', '/api/power-dialer/no-such-thing', 404, { success: false, error: 'NotFound', message: 'x' }],
  ];
  it.each(refused)('refuses %s %s %i %j', (method, url, status, body) => {
    expect(check(method, url, status, body)).toEqual(expect.any(String));
  });

  it('refuses an error that is not JSON', () => {
    expect(check('GET', '/api/agent-builder/agents/agt_x', 404, 'Not Found', 'text/plain; charset=utf-8')).toMatch(/errors are JSON/);
    expect(check('GET', `/api/agent-builder/agents/a1/campaign/workflow/digest`, 404, 'no such agent', 'text/plain; charset=utf-8')).toMatch(/errors are JSON/);
  });

  it('the family follows the path, not the operation', () => {
    expect(errorEnvelopeViolation('/api/v2/projects/p1/anything', 404, { success: false, message: 'x' })).toBeNull();
    expect(errorEnvelopeViolation('/api/power-dialer/cadences/c1', 404, { success: false, error: 'cadence c1 not found' })).toBeNull();
    expect(errorEnvelopeViolation('/api/agent-builder/projects', 404, { success: false, message: 'x' })).toMatch(/NotFound/);
  });
});

describe('success envelopes (spec 1)', () => {
  it('payload under data, except the listed operations', () => {
    expect(successEnvelopeViolation('getAgent', 200, { success: true, data: {} })).toBeNull();
    expect(successEnvelopeViolation('enrolLead', 200, { success: true, data: {}, created: true })).toBeNull();
    expect(successEnvelopeViolation('buyPhoneNumber', 200, { success: true, phoneNumber: {} })).toBeNull();
    expect(successEnvelopeViolation('assignPhoneNumber', 200, { success: true, phoneNumber: {} })).toBeNull();
    expect(successEnvelopeViolation('listCampaignProjects', 200, { success: true, projects: [] })).toBeNull();
    expect(successEnvelopeViolation('listCrmCustomValues', 200, { success: true, values: [] })).toBeNull();
    expect(successEnvelopeViolation('listCrmCustomFields', 200, { success: true, fields: [] })).toBeNull();
    expect(successEnvelopeViolation('appendWorkflowNodes', 200, { success: true, workflow: {}, warnings: [] })).toBeNull();
    expect(successEnvelopeViolation('appendWorkflowNodesProjectScoped', 200, { success: true, workflow: null })).toBeNull();
    expect(successEnvelopeViolation('deleteProject', 200, { success: true, message: 'deleted' })).toBeNull();
    expect(successEnvelopeViolation('openapi', 200, { openapi: '3.1.0' })).toBeNull();
  });

  const refused: [string, unknown][] = [
    ['getAgent', { success: true, agent: {} }],
    ['getAgent', { success: false, data: {} }],
    ['getAgent', { data: {} }],
    ['getAgent', [{}]],
    ['unassignPhoneNumber', { success: true, phoneNumber: {} }],
    ['buyPhoneNumber', { success: true, data: {} }],
    ['buyPhoneNumber', { success: true, phoneNumber: {}, data: {} }],
    ['listCampaignProjects', { success: true, data: [] }],
    ['listCampaignProjects', { success: true, projects: [], total: 0 }],
    ['listCrmCustomValues', { success: true, data: [] }],
    ['listCrmCustomFields', { success: true, values: [] }],
    ['appendWorkflowNodes', { success: true, data: {} }],
    ['appendWorkflowNodes', { success: true, workflow: {}, data: {} }],
    ['appendWorkflowNodesProjectScoped', { success: true, warnings: [] }],
    ['deleteProject', { success: true, data: { message: 'deleted' } }],
    ['deleteProject', { success: true }],
  ];
  it.each(refused)('refuses %s %j', (operationId, body) => {
    expect(successEnvelopeViolation(operationId, 200, body)).toEqual(expect.any(String));
  });

  it('refuses a success for an operation that does not exist, or with the wrong content type', () => {
    expect(check('GET', '/api/no-such-thing', 200, { success: true, data: {} })).toMatch(/no operation/);
    expect(check('POST', '/api/v2/projects/systems', 200, { success: true, data: [] })).toMatch(/no operation/);
    expect(check('GET', '/api/agent-builder/agents/a1/campaign/workflow/digest', 200, 'VOICEMAIL: ...', JSON_TYPE)).toMatch(/content-type/);
    expect(check('GET', '/api/v2/projects/systems', 200, 'ok', 'text/plain')).toMatch(/content-type/);
    expect(check('GET', '/api/v2/projects/systems', 201, { success: true, data: [] })).toMatch(/does not declare/);
    expect(check('GET', '/api/agent-builder/agents/a1/campaign/workflow/digest', 200, 'VOICEMAIL: ...', 'text/plain; charset=utf-8')).toBeNull();
  });
});
