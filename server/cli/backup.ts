import path from 'node:path';
import { loadConfig } from '../config.js';
import { backupSqlite } from '../store/sqlite/backup.js';

const usage = 'usage: npm run backup -- <new file>   copies the SQLite store ($DATA_DIR/app.db) while the product runs';

/**
 * An online backup of the embedded store. With DATABASE_URL the store is Postgres: back it up with
 * its own tools (`pg_dump`, docs/deploy.md).
 */
async function main() {
  const dest = process.argv[2];
  if (!dest) {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
  const config = loadConfig();
  if (process.env.DATABASE_URL) {
    process.stderr.write('DATABASE_URL is set: the store is Postgres; back it up with pg_dump (docs/deploy.md, "Backups")\n');
    process.exit(2);
  }
  const file = path.join(config.dataDir, 'app.db');
  const started = Date.now();
  let shown = -1;
  const { pages } = await backupSqlite(file, path.resolve(dest), (copied, total) => {
    const pct = Math.floor((copied / total) * 10) * 10;
    if (pct !== shown) process.stderr.write(`[backup] ${copied} of ${total} pages (${pct}%)\n`);
    shown = pct;
  });
  process.stderr.write(`[backup] ${file} -> ${path.resolve(dest)}: ${pages} pages, integrity ok, in ${Date.now() - started} ms\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`backup failed: ${(err as Error).message}\n`);
  process.exit(1);
});
