import type { LeasesRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';

export function leasesRepo(db: Db): Sync<LeasesRepository> {
  // One statement: free, run out, or already this holder's, the row becomes this holder's.
  const claim = db.prepare(
    `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @until)
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leases.expires_at < @now OR leases.holder = excluded.holder`,
  );
  const release = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  return {
    claim(name: string, holder: string, ms: number): boolean {
      const now = Date.now();
      return claim.run({ name, holder, until: new Date(now + ms).toISOString(), now: new Date(now).toISOString() }).changes === 1;
    },
    release(name: string, holder: string): void {
      release.run(name, holder);
    },
  };
}
