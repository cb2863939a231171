import type { RunInputsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { PostCallInput } from '../../../engine/workflows/post-call-types.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';

export function runInputsRepo(db: Db): Sync<RunInputsRepository> {
  const put = db.prepare('INSERT INTO run_inputs (workflow_id, agency_id, input) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const get = db.prepare<[string, string], { input: string }>('SELECT input FROM run_inputs WHERE agency_id = ? AND workflow_id = ?');
  return {
    put: (agencyId: string, workflowId: string, input: PostCallInput) => void put.run(workflowId, agencyId, JSON.stringify(input)),
    get(agencyId: string, workflowId: string): PostCallInput | undefined {
      const r = get.get(agencyId, workflowId);
      return r ? parseJson<PostCallInput>(r.input, 'run_inputs.input') : undefined;
    },
  };
}
