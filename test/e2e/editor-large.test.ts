/**
 * A large workflow in the browser (300+ steps, so only what is on screen is drawn): the handle
 * positions the editor gives React Flow up front are the ones the browser measures; the MiniMap
 * and "fit view" cover every step, drawn or not; zoomed far out steps are blocks that can still be
 * selected, edges lose their buttons, drag-panning moves a picture of the graph, and zooming back
 * in brings the text back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { laneHandles, stepHandles } from '../../editor/src/model/flow.js';
import { LANE_HEADER_HEIGHT, NODE_HEIGHT, NODE_WIDTH } from '../../editor/src/model/layout.js';
import type { GraphNode } from '../../editor/src/model/types.js';
import { newAgent, newPage, openEditor, shot, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
let locationId: string;
beforeAll(async () => {
  h = await createHarness();
  browser = await launchBrowser();
  ({ locationId } = await createProjectAgentCampaign(h));
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

type Node = Pick<GraphNode, 'id' | 'type' | 'config'> & { position: { x: number; y: number } };

/** Four lanes of ~80-step chains: an if every 10 steps (one step on "false"), a router, a draft. */
function largeGraph() {
  const nodes: Node[] = [];
  const edges: { id: string; source: string; target: string; sourceHandle?: string }[] = [];
  const entries: Record<string, string> = {};
  const add = (type: Node['type'], config: Record<string, unknown>) => {
    const id = `n${nodes.length + 1}`;
    nodes.push({ id, type, config, position: { x: 0, y: 0 } });
    return id;
  };
  const link = (source: string, target: string, sourceHandle?: string) => edges.push({ id: `e${edges.length + 1}`, source, target, ...(sourceHandle && { sourceHandle }) });
  for (const lane of ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION']) {
    let prev: { id: string; handle?: string } | null = null;
    for (let k = 0; k < 80; k++) {
      let id: string;
      let next: { id: string; handle?: string };
      if (k % 10 === 9) {
        id = add('if', { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: k }] });
        link(id, add('add-tag', { tags: [`short-${k}`] }), 'false');
        next = { id, handle: 'true' };
      } else if (lane === 'VOICEMAIL' && k === 4) {
        id = add('switch', { cases: [{ id: 'case-1', label: 'Long', match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 60 }] }, { id: 'case-2', label: 'Short', match: 'all', conditions: [{ field: 'call.duration', op: 'lt', value: 10 }] }] });
        next = { id, handle: 'default' };
      } else if (lane === 'SUCCESS' && k === 2) {
        id = add('add-note', {});
        next = { id };
      } else {
        id = add('add-tag', { tags: [`${lane.toLowerCase()}-${k}`] });
        next = { id };
      }
      if (prev) link(prev.id, id, prev.handle);
      else entries[lane] = id;
      prev = next;
    }
  }
  return { nodes, edges, dispositionEntries: entries };
}

/** What React Flow measures for a drawn node: its size and its handles' boxes, relative to it, in flow units. */
function measure(page: Page, id: string) {
  return page.evaluate((nodeId) => {
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${nodeId}"]`)!;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).m22;
    const box = el.getBoundingClientRect();
    const handles = [...el.querySelectorAll<HTMLElement>('.react-flow__handle')].map((hd) => {
      const r = hd.getBoundingClientRect();
      return { id: hd.getAttribute('data-handleid'), type: hd.classList.contains('source') ? 'source' : 'target', x: (r.left - box.left) / zoom, y: (r.top - box.top) / zoom, width: hd.offsetWidth, height: hd.offsetHeight };
    });
    return { width: el.offsetWidth, height: el.offsetHeight, handles };
  }, id);
}

const zoomOf = (page: Page) => page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).m22);
const drawnIds = (page: Page) => page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));

describe('a large workflow', () => {
  it('draws what is on screen with handles where the browser measures them; MiniMap and fit view cover every step; far out, steps are blocks', async () => {
    const { agentId } = await newAgent(h, locationId, 'Large');
    const graph = largeGraph();
    const put = await h.api('PUT', wfPath(agentId), { body: { ...graph, expectedVersion: 0 } });
    expect(put.status).toBe(200);
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    // Voicemail, Success, Call back, No action, Reschedule (the agent's outcomes, as in editor-editing).
    const lanes = 5;

    // Only part of it is drawn; the MiniMap shows every step and lane.
    const drawn = (await drawnIds(page)).filter((id) => byId.has(id));
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(graph.nodes.length);
    // (The MiniMap draws right after the canvas is ready: its last node is awaited, then counted.)
    await page.locator('.react-flow__minimap-node').nth(graph.nodes.length + lanes - 1).waitFor();
    await expect(page.locator('.react-flow__minimap-node').count()).resolves.toBe(graph.nodes.length + lanes);

    // Sizes and handles as given to React Flow before drawing = as the browser measures them
    // (one handle out, an if's two, a router's three, a lane header's one), at any zoom.
    const check = async (ids: string[]) => {
      for (const id of ids) {
        const m = await measure(page, id);
        const node = byId.get(id);
        const expected = node ? stepHandles(node) : laneHandles(id.replace(/^lane:/, ''));
        expect({ width: m.width, height: m.height }).toEqual(node ? { width: NODE_WIDTH, height: NODE_HEIGHT } : { width: NODE_WIDTH, height: LANE_HEADER_HEIGHT });
        expect(m.handles.map((x) => [x.id, x.type])).toEqual(expected.map((x) => [x.id, x.type]));
        m.handles.forEach((x, i) => {
          const e = expected[i]!;
          expect(Math.abs(x.x - e.x), `${id} handle ${i} x`).toBeLessThan(0.05);
          expect(Math.abs(x.y - e.y), `${id} handle ${i} y`).toBeLessThan(0.05);
          expect([x.width, x.height]).toEqual([e.width, e.height]);
        });
      }
    };
    const sample = async () => {
      const ids = await drawnIds(page);
      const lane = ids.find((id) => !byId.has(id));
      return [...['add-tag', 'if', 'switch', 'add-note'].map((t) => ids.find((id) => byId.get(id)?.type === t)), lane].filter((x): x is string => !!x);
    };
    const opening = await sample();
    expect(opening.length).toBeGreaterThanOrEqual(4);
    expect(opening.some((id) => id.startsWith('lane:'))).toBe(true);
    expect(opening.map((id) => byId.get(id)?.type)).toEqual(expect.arrayContaining(['add-tag', 'if', 'switch']));
    await check(opening);

    // Fit view frames every step, drawn before or not: all of them are drawn then.
    await page.getByTestId('fit-button').click();
    await page.waitForTimeout(600);
    expect(await zoomOf(page)).toBeLessThan(0.35);
    await expect(drawnIds(page).then((ids) => ids.length)).resolves.toBe(graph.nodes.length + lanes);
    await shot(page, 'editor-large-low-detail');

    // Far out: blocks (no text, no badges, no "+"), edges without buttons, same geometry.
    await expect(page.getByTestId('canvas').getAttribute('class')).resolves.toContain('low-detail');
    const draft = page.getByTestId(`node-${graph.nodes.find((n) => n.type === 'add-note')!.id}`);
    await expect(draft.getAttribute('class')).resolves.toContain('draft');
    await expect(page.locator('.react-flow__node .step-title').count()).resolves.toBe(0);
    await expect(page.locator('[data-testid^="edge-insert-"]').count()).resolves.toBe(0);
    expect(await page.locator('.react-flow__edge').count()).toBeGreaterThan(graph.edges.length / 2);
    await check(await sample());

    // Drag-panning this far out: a picture of the graph moves while the elements are skipped;
    // on release the elements are back and the view has moved by the drag.
    const pane = (await page.locator('.react-flow__pane').boundingBox())!;
    const start = await page.evaluate(({ x, y, w, h }) => {
      for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) if (document.elementFromPoint(x + (w * i) / 20, y + (h * j) / 20)?.classList.contains('react-flow__pane')) return { x: x + (w * i) / 20, y: y + (h * j) / 20 };
      return null;
    }, { x: pane.x, y: pane.y, w: pane.width, h: pane.height });
    expect(start).not.toBeNull();
    const before = await page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).m41);
    await page.mouse.move(start!.x, start!.y);
    await page.mouse.down();
    await page.mouse.move(start!.x + 20, start!.y + 5, { steps: 4 });
    await expect(page.getByTestId('canvas').getAttribute('class')).resolves.toContain('pan-snapshot');
    const picture = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.pan-snapshot-image')!;
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) painted++;
      return { shown: getComputedStyle(c).display !== 'none', painted, skipped: getComputedStyle(document.querySelector('.react-flow__nodes')!).contentVisibility };
    });
    expect(picture).toMatchObject({ shown: true, skipped: 'hidden' });
    expect(picture.painted).toBeGreaterThan(1000);
    await shot(page, 'editor-large-pan-snapshot');
    await page.mouse.up();
    await expect(page.getByTestId('canvas').getAttribute('class')).resolves.not.toContain('pan-snapshot');
    await expect(page.evaluate(() => getComputedStyle(document.querySelector('.react-flow__nodes')!).contentVisibility)).resolves.toBe('visible');
    const after = await page.evaluate(() => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).m41);
    expect(after - before).toBeCloseTo(20, 0);
    await expect(drawnIds(page).then((ids) => ids.length)).resolves.toBe(graph.nodes.length + lanes);

    // A block can still be selected: its form opens.
    const n2 = page.locator('.react-flow__node[data-id="n2"]');
    await n2.click();
    await expect(page.getByTestId('node-form').getAttribute('data-node-id')).resolves.toBe('n2');
    await expect(n2.getAttribute('class')).resolves.toContain('selected');

    // Zooming back in brings the text and the edge buttons back.
    while ((await zoomOf(page)) < 0.4) {
      await page.locator('.react-flow__controls-zoomin').click();
      await page.waitForTimeout(150);
    }
    await page.waitForTimeout(500);
    await expect(page.getByTestId('canvas').getAttribute('class')).resolves.not.toContain('low-detail');
    await page.locator('.react-flow__node .step-title').first().waitFor();
    await page.locator('[data-testid^="edge-insert-"]').first().waitFor();
    await check(await sample());
    await page.close();
  });
});
