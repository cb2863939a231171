import type { PostCallInput } from '../../../engine/workflows/post-call-types.js';
import type { RunInputsRepository } from '../index.js';
import { parseJson, type Sql } from './sql.js';

export function runInputsRepo(sql: Sql): RunInputsRepository {
  return {
    async put(agencyId, workflowId, input) {
      await sql.run('INSERT INTO run_inputs (workflow_id, agency_id, input) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [workflowId, agencyId, JSON.stringify(input)]);
    },
    async get(agencyId, workflowId) {
      const r = await sql.one<{ input: string }>('SELECT input FROM run_inputs WHERE agency_id = $1 AND workflow_id = $2', [agencyId, workflowId]);
      return r ? parseJson<PostCallInput>(r.input, 'run_inputs.input') : undefined;
    },
  };
}
