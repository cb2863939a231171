import pg from 'pg';
import { inject } from 'vitest';

let counter = 0;

/**
 * A database of its own on the run's Postgres cluster (test/global-setup.ts): a test file's
 * stores open it, migrate it and never meet another file's rows. `drop` removes it.
 */
export async function createDatabase(prefix = 'vc'): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const admin = inject('postgresUrl');
  const name = `${prefix}_${process.pid}_${++counter}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
