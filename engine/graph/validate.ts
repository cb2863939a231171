/**
 * What may be stored. Every refusal names the field and the node, e.g.
 * `nodes[2].config.body: unreplaced stand-in "REPLACE-WITH-NAME" in node n3 (send-sms)`.
 * Not for the Temporal workflow bundle: this module compiles ajv validators.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AppendRouterConfig, nodeConfigSchemas } from '../../schemas/workflow.js';
import { E164 } from '../../schemas/common.js';
import { GraphRefusal, type GraphProblem } from './errors.js';
import { layoutGraph } from './layout.js';
import { DISPOSITIONS, normalizeOutcome } from './outcomes.js';
import { findStandIns } from './standins.js';
import type { Graph, GraphEdge, GraphInput, GraphNode, NodeType } from './types.js';
import { isBranch, isDraft, isNodeType, NODE_TYPES, REMOVED_NODE_TYPES } from './types.js';
import { handlesOf } from './walk.js';

// verbose: errors carry their parent schema, so a refusal can list the allowed settings.
const ajv = new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true, verbose: true });
// Compiled once at module load: every write validates every node.
const configValidators = Object.fromEntries(
  Object.entries(nodeConfigSchemas).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<NodeType, ValidateFunction>;

type AnyNode = { id?: unknown; type?: unknown; label?: unknown; config?: unknown; position?: unknown };
type AnyEdge = { id?: unknown; source?: unknown; target?: unknown; sourceHandle?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const inNode = (id: string, type: string) => `in node ${id} (${type})`;
const quoted = (s: unknown) => JSON.stringify(s);

// ---------------------------------------------------------------------------------------------
// One node
// ---------------------------------------------------------------------------------------------

/** `/cases/0/conditions/1` -> `.cases[0].conditions[1]` */
const pointerToPath = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg) ? `.${seg}` : `[${quoted(seg)}]`))
    .join('');

function describeAjvError(e: ErrorObject): { at: string; what: string } {
  const at = pointerToPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { at: `${at}.${String(p.missingProperty)}`, what: 'is required' };
    case 'additionalProperties': {
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return { at: `${at}.${String(p.additionalProperty)}`, what: `is not a setting here${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}` };
    }
    case 'enum':
      return { at, what: `must be one of ${(p.allowedValues as unknown[]).map((v) => quoted(v)).join(', ')}` };
    case 'pattern':
      if (p.pattern === E164.pattern) return { at, what: 'must be an E.164 phone number: + and 10 to 15 digits' };
      return { at, what: e.message ?? 'is invalid' };
    default:
      return { at, what: e.message ?? 'is invalid' };
  }
}

/**
 * The problems of one node's type. `field` is where the node sits in the request
 * (`nodes[2]`), `nodeId` the id it has or will have.
 */
export function checkNodeType(type: unknown, field: string, nodeId: string): GraphProblem | null {
  if (typeof type !== 'string' || type === '') {
    return { field: `${field}.type`, nodeId, message: `${field}.type: a node type is required (node ${nodeId}); valid types: ${NODE_TYPES.join(', ')}` };
  }
  if ((REMOVED_NODE_TYPES as readonly string[]).includes(type)) {
    return {
      field: `${field}.type`,
      nodeId,
      message: `${field}.type: node type "${type}" was removed in July 2026 and can no longer be saved (node ${nodeId}); valid types: ${NODE_TYPES.join(', ')}`,
    };
  }
  if (!isNodeType(type)) {
    return { field: `${field}.type`, nodeId, message: `${field}.type: unknown node type ${quoted(type)} (node ${nodeId}); valid types: ${NODE_TYPES.join(', ')}` };
  }
  return null;
}

/**
 * The problems of one node's config for a known type: its schema, branch rules and stand-ins.
 * `field` is the config's place in the request (`nodes[2].config`). An empty config is a draft:
 * accepted when `allowDraft` (PUT), refused otherwise.
 */
export function checkNodeConfig(type: NodeType, config: unknown, opts: { field: string; nodeId: string; allowDraft: boolean }): GraphProblem[] {
  const { field, nodeId } = opts;
  const problem = (at: string, what: string): GraphProblem => ({ field: `${field}${at}`, nodeId, message: `${field}${at}: ${what} ${inNode(nodeId, type)}` });
  if (!isObject(config)) return [problem('', 'must be an object')];
  if (isDraft({ config })) {
    return opts.allowDraft ? [] : [problem('', 'is empty; an unconfigured draft can only be saved by replacing the whole graph (PUT)')];
  }
  const out: GraphProblem[] = [];
  const validate = configValidators[type];
  if (!validate(config)) {
    const { at, what } = describeAjvError(validate.errors![0]!);
    out.push(problem(at, what));
  }
  if (type === 'switch' && Array.isArray(config.cases)) {
    const seen = new Set<string>();
    config.cases.forEach((c: unknown, i: number) => {
      const id = isObject(c) ? c.id : undefined;
      if (typeof id !== 'string') return;
      if (id === 'default') out.push(problem(`.cases[${i}].id`, '"default" is the fall-through handle and cannot name a case'));
      else if (seen.has(id)) out.push(problem(`.cases[${i}].id`, `duplicate case id ${quoted(id)}`));
      seen.add(id);
    });
  }
  for (const s of findStandIns(config, '')) out.push(problem(s.path, s.reason));
  return out;
}

const routerConfigValidator = ajv.compile(AppendRouterConfig);

/**
 * The problems of a router's config as the append request sends it (cases with their `nodes`,
 * optional `default`), against its schema and the case-id rules. The actions inside are checked
 * by the caller, node by node. `field` is e.g. `nodes[0].config`.
 */
export function checkRouterConfig(config: unknown, opts: { field: string; nodeId: string }): GraphProblem[] {
  const { field, nodeId } = opts;
  const problem = (at: string, what: string): GraphProblem => ({ field: `${field}${at}`, nodeId, message: `${field}${at}: ${what} ${inNode(nodeId, 'switch')}` });
  if (!isObject(config)) return [problem('', 'must be an object with cases')];
  if (!routerConfigValidator(config)) {
    const { at, what } = describeAjvError(routerConfigValidator.errors![0]!);
    return [problem(at, what)];
  }
  const out: GraphProblem[] = [];
  const seen = new Set<string>();
  (config.cases as { id?: string }[]).forEach((c, i) => {
    if (c.id === undefined) return;
    if (c.id === 'default') out.push(problem(`.cases[${i}].id`, '"default" is the fall-through handle and cannot name a case'));
    else if (seen.has(c.id)) out.push(problem(`.cases[${i}].id`, `duplicate case id ${quoted(c.id)}`));
    seen.add(c.id);
  });
  const { cases: _cases, default: _default, ...rest } = config;
  for (const s of findStandIns({ ...rest, cases: (config.cases as Record<string, unknown>[]).map(({ nodes: _n, ...c }) => c) }, '')) {
    out.push(problem(s.path, s.reason));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The whole graph
// ---------------------------------------------------------------------------------------------

/** Every reason the graph cannot be stored, in a stable order (nodes, edges, entries, cycles). */
export function findGraphProblems(graph: Graph | GraphInput): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const add = (field: string, message: string, nodeId?: string) => problems.push({ field, message: `${field}: ${message}`, ...(nodeId !== undefined && { nodeId }) });

  if (!isObject(graph)) return [{ field: 'graph', message: 'graph: must be an object with nodes, edges and dispositionEntries' }];
  const nodes: readonly AnyNode[] = Array.isArray(graph.nodes) ? graph.nodes : [];
  const edges: readonly AnyEdge[] = Array.isArray(graph.edges) ? graph.edges : [];
  if (!Array.isArray(graph.nodes)) add('nodes', 'must be an array');
  if (!Array.isArray(graph.edges)) add('edges', 'must be an array');
  if (!isObject(graph.dispositionEntries)) add('dispositionEntries', 'must be an object');

  // Nodes: ids, types, configs.
  const byId = new Map<string, { type: string; config: unknown; index: number }>();
  nodes.forEach((node, i) => {
    const field = `nodes[${i}]`;
    if (!isObject(node)) return add(field, 'must be an object with id, type and config');
    if (typeof node.id !== 'string' || node.id === '') return add(`${field}.id`, 'a non-empty node id is required');
    const id = node.id;
    const first = byId.get(id);
    if (first) return add(`${field}.id`, `duplicate node id ${quoted(id)} (also nodes[${first.index}])`, id);
    byId.set(id, { type: String(node.type), config: node.config, index: i });
    if (node.position !== undefined) {
      const pos = node.position as { x?: unknown; y?: unknown } | null;
      if (!isObject(pos) || typeof pos.x !== 'number' || typeof pos.y !== 'number' || !Number.isFinite(pos.x) || !Number.isFinite(pos.y)) {
        add(`${field}.position`, `must be { x, y } with finite numbers ${inNode(id, String(node.type))}`, id);
      }
    }
    if (node.label !== undefined && typeof node.label !== 'string') add(`${field}.label`, `must be text ${inNode(id, String(node.type))}`, id);
    const typeProblem = checkNodeType(node.type, field, id);
    if (typeProblem) return problems.push(typeProblem);
    problems.push(...checkNodeConfig(node.type as NodeType, node.config, { field: `${field}.config`, nodeId: id, allowDraft: true }));
  });
  const describe = (id: string) => `node ${id} (${byId.get(id)?.type ?? '?'})`;

  // Edges: ids, endpoints, handles, at most one edge per node (action) or per handle (branch).
  const edgeIds = new Map<string, number>();
  const slots = new Map<string, string>();
  const next = new Map<string, string[]>();
  edges.forEach((edge, i) => {
    const field = `edges[${i}]`;
    if (!isObject(edge)) return add(field, 'must be an object with id, source and target');
    if (typeof edge.id !== 'string' || edge.id === '') return add(`${field}.id`, 'a non-empty edge id is required');
    const id = edge.id;
    if (edgeIds.has(id)) return add(`${field}.id`, `duplicate edge id ${quoted(id)} (also edges[${edgeIds.get(id)}])`);
    edgeIds.set(id, i);
    let endpointsOk = true;
    for (const end of ['source', 'target'] as const) {
      const ref = edge[end];
      if (typeof ref !== 'string' || !byId.has(ref)) {
        add(`${field}.${end}`, `node ${quoted(ref)} does not exist (edge ${id})`);
        endpointsOk = false;
      }
    }
    if (!endpointsOk) return;
    const source = edge.source as string;
    const target = edge.target as string;
    const sourceNode = byId.get(source)!;
    const handle = edge.sourceHandle === null || edge.sourceHandle === undefined ? undefined : edge.sourceHandle;
    if (handle !== undefined && typeof handle !== 'string') return add(`${field}.sourceHandle`, `must be a string or absent (edge ${id})`, source);
    if (isBranch(sourceNode.type)) {
      const handles = handlesOf({ type: sourceNode.type, config: isObject(sourceNode.config) ? sourceNode.config : {} });
      if (handle === undefined || !handles.includes(handle)) {
        return add(
          `${field}.sourceHandle`,
          `${handle === undefined ? 'is required' : `${quoted(handle)} is not a handle`} out of ${describe(source)}; use one of ${handles.map((h) => quoted(h)).join(', ')} (edge ${id})`,
          source,
        );
      }
    } else if (isNodeType(sourceNode.type) && handle !== undefined) {
      return add(`${field}.sourceHandle`, `${describe(source)} is an action and has no branch handles; leave sourceHandle out (edge ${id})`, source);
    }
    const slot = `${source}\u0000${handle ?? ''}`;
    const taken = slots.get(slot);
    if (taken !== undefined) {
      return add(
        handle === undefined ? `${field}.source` : `${field}.sourceHandle`,
        handle === undefined
          ? `${describe(source)} already continues through edge ${taken}; an action leads to at most one next node (edge ${id})`
          : `handle ${quoted(handle)} of ${describe(source)} is already connected by edge ${taken}; one chain per branch (edge ${id})`,
        source,
      );
    }
    slots.set(slot, id);
    next.set(source, [...(next.get(source) ?? []), target]);
  });

  // Outcome entries.
  if (isObject(graph.dispositionEntries)) {
    for (const [key, nodeId] of Object.entries(graph.dispositionEntries)) {
      const field = `dispositionEntries.${key}`;
      if (!(DISPOSITIONS as readonly string[]).includes(key)) {
        const d = normalizeOutcome(key);
        add(field, d ? `outcome keys are raw dispositions in upper case; use ${quoted(d)}` : `unknown outcome; valid: ${DISPOSITIONS.join(', ')}`);
        continue;
      }
      if (typeof nodeId !== 'string' || !byId.has(nodeId)) add(field, `node ${quoted(nodeId)} does not exist`);
    }
  }

  // Cycles: a run must always end. Iterative three-colour DFS; report each cycle once.
  const colour = new Map<string, 1 | 2>();
  for (const start of byId.keys()) {
    if (colour.has(start)) continue;
    const path: string[] = [];
    const stack: { id: string; i: number }[] = [{ id: start, i: 0 }];
    colour.set(start, 1);
    path.push(start);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const targets = next.get(top.id) ?? [];
      if (top.i >= targets.length) {
        colour.set(top.id, 2);
        stack.pop();
        path.pop();
        continue;
      }
      const t = targets[top.i++]!;
      const c = colour.get(t);
      if (c === 1) {
        const loop = [...path.slice(path.indexOf(t)), t];
        add('edges', `the edges form a cycle ${loop.join(' → ')}; a run must always end`, t);
      } else if (c === undefined) {
        colour.set(t, 1);
        path.push(t);
        stack.push({ id: t, i: 0 });
      }
    }
  }
  return problems;
}

/** Throws a `GraphRefusal` (VALIDATION) with the first problem's message; all problems attached. */
export function validateGraph(graph: Graph | GraphInput): void {
  const problems = findGraphProblems(graph);
  if (problems.length > 0) throw GraphRefusal.fromProblem(problems[0]!, problems);
}

const cloneJson = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/**
 * A client's graph (PUT) as it will be stored: validated, copied to the stored shape (a `null`
 * sourceHandle dropped, unknown keys gone) and with every node lacking a position laid out.
 */
export function prepareGraph(input: GraphInput | Graph): Graph {
  validateGraph(input);
  const nodes = input.nodes.map((n) => ({
    id: n.id,
    type: n.type as NodeType,
    ...(typeof n.label === 'string' && { label: n.label }),
    config: cloneJson(n.config),
    ...(n.position && { position: { x: n.position.x, y: n.position.y } }),
  })) as GraphNode[];
  const edges: GraphEdge[] = input.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    ...(typeof e.sourceHandle === 'string' && { sourceHandle: e.sourceHandle }),
  }));
  const dispositionEntries: Record<string, string> = {};
  for (const d of DISPOSITIONS) {
    const id = input.dispositionEntries[d];
    if (id !== undefined) dispositionEntries[d] = id;
  }
  return layoutGraph({ nodes, edges, dispositionEntries });
}
