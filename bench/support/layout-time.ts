/**
 * Times the editor's layout (editor/src/model/layout.ts) of the 1,000-step workflow bench/editor.ts
 * loads (four lanes of chains, an if every 12 steps with a two-step "false" arm), in Node.
 * `npx tsx bench/support/layout-time.ts [steps] [runs]`: median and range after 5 warm-up runs.
 */
import { layoutWorkflow, type LayoutInput } from '../../editor/src/model/layout';

const n = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 30);
const lanes = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'];
const input: LayoutInput = { lanes: [], nodes: [], edges: [] };
let id = 0;
const add = () => {
  const nid = `n${++id}`;
  input.nodes.push({ id: nid, position: { x: 0, y: 0 }, pinned: false });
  return nid;
};
const perLane = Math.ceil(n / lanes.length);
for (const lane of lanes) {
  let prev: { id: string; order: number } | null = null;
  let entry: string | null = null;
  for (let k = 0; k < perLane && id < n; k++) {
    const isBranch = k % 12 === 11 && id + 3 <= n;
    const node = add();
    if (prev) input.edges.push({ source: prev.id, target: node, order: prev.order });
    else entry = node;
    if (isBranch) {
      const a = add();
      const b = add();
      input.edges.push({ source: node, target: a, order: 1 });
      input.edges.push({ source: a, target: b, order: 0 });
      k += 2;
      prev = { id: node, order: 0 };
    } else prev = { id: node, order: 0 };
  }
  input.lanes.push({ id: lane, entry });
}

const times: number[] = [];
for (let i = 0; i < runs + 5; i++) {
  const copy = structuredClone(input);
  const t = performance.now();
  await layoutWorkflow(copy);
  if (i >= 5) times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`layout of ${n} steps: median ${times[times.length >> 1]!.toFixed(1)} ms (${times[0]!.toFixed(1)}-${times[times.length - 1]!.toFixed(1)}) over ${runs} runs`);
