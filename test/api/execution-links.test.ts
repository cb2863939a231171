import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { expectConforms } from '../helpers/contract.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { temporalUiUrl: 'http://temporal-ui.internal:8080' } });
});
afterAll(async () => h?.close());

describe('executions link to their run in the Temporal Web UI', () => {
  it('list and detail carry temporalUrl, naming the workflow Temporal ran', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm'] } }] } });
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, phone: '+15125550123' });
    const event = callEnded(ctx.campaignId, { contactId: contact.id });
    expect((await postCallEvent(h, event)).status).toBe(202);
    await awaitRun(h, event.call.callId);

    const list = await h.api('GET', `${wf}/executions`);
    expectConforms(h.services, 'listWorkflowExecutions', 200, list.body);
    const [run] = list.body.data;
    const prefix = 'http://temporal-ui.internal:8080/namespaces/default/workflows/';
    expect(run.temporalUrl).toBe(`${prefix}${encodeURIComponent(run.workflowId)}`);
    const one = await h.api('GET', `${wf}/executions/${run.id}`);
    expectConforms(h.services, 'getWorkflowExecution', 200, one.body);
    expect(one.body.data.temporalUrl).toBe(run.temporalUrl);
    // The id in the link is the one Temporal knows: the UI opens that workflow's run.
    const linked = decodeURIComponent(new URL(run.temporalUrl).pathname.split('/').pop()!);
    const described = await h.temporal!.client.workflow.getHandle(linked).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect(described.type).toBe('postCallLocalRun');
  });

  it('no UI address configured: temporalUrl is null', async () => {
    const t = await createHarness({ temporal: true, worker: false, config: { temporalUiUrl: null } });
    try {
      const ctx = await createProjectAgentCampaign(t);
      const event = callEnded(ctx.campaignId);
      expect((await postCallEvent(t, event)).status).toBe(202);
      const list = await t.api('GET', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/executions`);
      expect(list.body.data[0].temporalUrl).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('the default UI address is the embedded dev server\'s, and an external cluster needs TEMPORAL_UI_URL', async () => {
    const { loadConfig } = await import('../../server/config.js');
    expect(loadConfig({}).temporalUiUrl).toBe('http://127.0.0.1:8233');
    expect(loadConfig({ TEMPORAL_UI_PORT: '9233' }).temporalUiUrl).toBe('http://127.0.0.1:9233');
    expect(loadConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233' }).temporalUiUrl).toBeNull();
    expect(loadConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_UI_URL: 'https://temporal.example.org/' }).temporalUiUrl).toBe('https://temporal.example.org');
  });
});
