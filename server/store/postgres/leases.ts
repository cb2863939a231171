import type { LeasesRepository } from '../index.js';
import type { Sql } from './sql.js';

export function leasesRepo(sql: Sql): LeasesRepository {
  return {
    // One statement: free, run out, or already this holder's, the row becomes this holder's; a
    // racing claim waits for it and re-checks the condition on what it committed.
    claim: async (name, holder, ms) => {
      const now = Date.now();
      return (
        (await sql.run(
          `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE leases.expires_at < $4 OR leases.holder = excluded.holder`,
          [name, holder, new Date(now + ms).toISOString(), new Date(now).toISOString()],
        )) === 1
      );
    },
    async release(name, holder) {
      await sql.run('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
    },
  };
}
