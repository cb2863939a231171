import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Copies a live SQLite store to `dest` with SQLite's online backup API: the API and workers keep
 * reading and writing while it runs, and the copy is one consistent moment of the store (pages a
 * write changes during the copy are copied again). `progress` is told of each step.
 */
export async function backupSqlite(file: string, dest: string, progress?: (copied: number, total: number) => void): Promise<{ pages: number }> {
  if (!fs.existsSync(file)) throw new Error(`no store at ${file}`);
  if (fs.existsSync(dest)) throw new Error(`${dest} exists: choose a new file (a backup never overwrites)`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(dest, {
      progress: ({ totalPages: total, remainingPages }) => {
        progress?.(total - remainingPages, total);
        // pages per step: small enough that writers never wait long for the copy
        return 2_000;
      },
    });
    const copy = new Database(dest, { readonly: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy at ${dest} fails its integrity check: ${String(check)}`);
    } finally {
      copy.close();
    }
    return { pages: totalPages };
  } finally {
    db.close();
  }
}
