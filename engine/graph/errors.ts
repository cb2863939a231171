export type GraphRefusalCode = 'VALIDATION' | 'CONFLICT' | 'NOT_FOUND';

/** One reason a graph cannot be stored: where (`field`, e.g. `nodes[2].config.body`) and why. */
export interface GraphProblem {
  field: string;
  message: string;
  nodeId?: string;
}

/**
 * A graph operation refused. The message names the field and the node, e.g.
 * `nodes[2].config.body: unreplaced stand-in "REPLACE-WITH-NAME" in node n3 (send-sms)`.
 * - `VALIDATION`: the request (or the graph it would produce) is invalid (HTTP 400).
 * - `CONFLICT`: the request is well-formed but the stored graph's shape rules it out (HTTP 409),
 *   e.g. appending to a chain that ends in a branch.
 * - `NOT_FOUND`: a node id named by the request is not in the graph (HTTP 404).
 */
export class GraphRefusal extends Error {
  readonly code: GraphRefusalCode;
  readonly field: string | undefined;
  readonly nodeId: string | undefined;
  /** every problem found when the refusal came from whole-graph validation (the first is the message) */
  readonly problems: readonly GraphProblem[];
  /** which conflict a CONFLICT is, for the API's `code` (e.g. `ChainEndsInBranch`) */
  readonly reason: string | undefined;

  constructor(code: GraphRefusalCode, message: string, opts: { field?: string; nodeId?: string; problems?: readonly GraphProblem[]; reason?: string } = {}) {
    super(message);
    this.name = 'GraphRefusal';
    this.code = code;
    this.field = opts.field;
    this.nodeId = opts.nodeId;
    this.problems = opts.problems ?? [];
    this.reason = opts.reason;
  }

  static fromProblem(p: GraphProblem, problems: readonly GraphProblem[] = [p]): GraphRefusal {
    return new GraphRefusal('VALIDATION', p.message, { field: p.field, ...(p.nodeId !== undefined && { nodeId: p.nodeId }), problems });
  }
}
