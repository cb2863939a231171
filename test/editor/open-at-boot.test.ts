/**
 * The reads the editor's entry module starts before the UI has loaded (editor/src/api/open-at-boot.ts)
 * and the client's 401 handling around them (editor/src/api/client.ts), against a stubbed `fetch`
 * that logs each request: the page takes the early reads once, for the route they were started
 * for, and a 401 that comes before the app set its handler still sends it to sign-in.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const agent = { id: 'agt_1', name: 'Front desk', agentType: 'outreach', locationId: 'loc_a', projectId: 'prj_a', campaignId: 'cmp_1', capabilities: [], outcomes: [], postCallFields: [] };
const workflow = { agentId: 'agt_1', campaignId: 'cmp_1', locationId: 'loc_a', version: 1, nodes: [], edges: [], dispositionEntries: {}, updatedAt: '2026-11-26T00:00:00Z' };

function storage(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k), clear: () => m.clear(), key: () => null, get length() { return m.size; } };
}

let requests: string[];
let status: number;
beforeEach(() => {
  vi.resetModules();
  requests = [];
  status = 200;
  vi.stubGlobal('sessionStorage', storage());
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('fetch', async (request: Request) => {
    const url = new URL(request.url);
    requests.push(url.pathname + url.search);
    if (status !== 200) return new Response(JSON.stringify({ success: false, error: 'Unauthorized', message: 'Invalid API key' }), { status });
    const path = url.pathname;
    const data = path.endsWith('/campaign/workflow') ? workflow : path.endsWith('/campaigns') ? [] : path.startsWith('/api/v2/projects/') ? { id: 'prj_a', locationId: 'loc_a' } : agent;
    return new Response(JSON.stringify({ data }), { status: 200 });
  });
});
afterEach(() => vi.unstubAllGlobals());

const OPENING = ['/api/agent-builder/agents/agt_1/campaign/workflow', '/api/agent-builder/agents/agt_1', '/api/agent-builder/projects/loc_a/campaigns', '/api/v2/projects/loc_a'];

describe('the reads started at boot', () => {
  it('are taken by the page for the same route, once; a second opening reads afresh', async () => {
    const { startOpening, takeOpening } = await import('../../editor/src/api/open-at-boot.js');
    startOpening({ agentId: 'agt_1' });
    const opened = await takeOpening({ agentId: 'agt_1' });
    expect(opened.workflow.version).toBe(1);
    expect(requests.sort()).toEqual([...OPENING].sort());

    await takeOpening({ agentId: 'agt_1' });
    // The location is remembered now, so the project reads start with the agent's: four more.
    expect(requests).toHaveLength(8);
  });

  it('are not used for another route', async () => {
    const { startOpening, takeOpening } = await import('../../editor/src/api/open-at-boot.js');
    startOpening({ agentId: 'agt_1' });
    await takeOpening({ agentId: 'agt_1', campaignId: 'cmp_2', locationId: 'loc_a' });
    expect(requests.filter((r) => r.includes('campaignId=cmp_2'))).toEqual(['/api/agent-builder/agents/agt_1/campaign/workflow?locationId=loc_a&campaignId=cmp_2']);
    expect(requests).toHaveLength(8);
  });
});

describe('a 401', () => {
  it('that comes before the app set its handler is passed on when it does, once', async () => {
    status = 401;
    const { startOpening, takeOpening } = await import('../../editor/src/api/open-at-boot.js');
    const { setUnauthorizedHandler } = await import('../../editor/src/api/client.js');
    startOpening({ agentId: 'agt_1' });
    await expect(takeOpening({ agentId: 'agt_1' })).rejects.toMatchObject({ status: 401 });
    const signIn = vi.fn();
    setUnauthorizedHandler(signIn);
    expect(signIn).toHaveBeenCalledTimes(1);
    setUnauthorizedHandler(signIn);
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it('after the handler is set calls it at once', async () => {
    status = 401;
    const { ApiError, setUnauthorizedHandler } = await import('../../editor/src/api/client.js');
    const { agentsApi } = await import('../../editor/src/api/endpoints.js');
    const signIn = vi.fn();
    setUnauthorizedHandler(signIn);
    await expect(agentsApi.get('agt_1')).rejects.toBeInstanceOf(ApiError);
    expect(signIn).toHaveBeenCalledTimes(1);
  });
});
