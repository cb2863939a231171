import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { openStore } from '../../server/compose.js';
import { createDatabase } from '../helpers/postgres.js';

const logger = pino({ level: 'silent' });

describe('openStore: DATABASE_URL picks the store', () => {
  it('unset: SQLite in DATA_DIR', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-open-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      expect(config.databaseUrl).toBeUndefined();
      const store = await openStore(config, logger);
      await store.agencies.ensure('ag_sqlite', 'A', 1);
      await store.close();
      expect(fs.existsSync(path.join(dir, 'app.db'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a postgres:// URL: that database, migrated, and nothing written to DATA_DIR', async () => {
    const db = await createDatabase('open');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-open-'));
    try {
      const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: db.url });
      expect(config.databaseUrl).toBe(db.url);
      const store = await openStore(config, logger);
      await store.agencies.ensure('ag_pg', 'A', 1);
      await store.close();
      expect(fs.readdirSync(dir)).toEqual([]);
      const again = await openStore(config, logger);
      expect(await again.agencies.get('ag_pg')).toMatchObject({ id: 'ag_pg' });
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await db.drop();
    }
  });

  it('any other URL is refused, naming the setting', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/app' })).toThrow(/DATABASE_URL must be a postgres:\/\//);
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe('postgresql://u@h/db');
  });
});
