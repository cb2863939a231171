import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../server/temporal/launcher.js';

/**
 * A throwaway Postgres cluster for a test run (or a measurement): Debian's `postgresql` binaries,
 * `initdb` into a temp dir and `pg_ctl` on a free loopback port, run as the `postgres` OS user when
 * this process is root (Postgres refuses to run as root), as this user otherwise. Durability is
 * off (fsync, synchronous_commit): the cluster dies with the run.
 */
export interface PostgresCluster {
  /** the superuser's URL of the `postgres` database */
  url: string;
  port: number;
  /** the cluster's data directory (its `postmaster.pid` names the server process) */
  dataDir: string;
  stop(): void;
}

/** Where the server binaries are: PG_BIN, else `pg_config --bindir`, else the newest /usr/lib/postgresql/<n>/bin. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && fs.existsSync(path.join(fromConfig.stdout.trim(), 'initdb'))) return fromConfig.stdout.trim();
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  throw new Error('no Postgres server binaries (initdb, pg_ctl): run `bash scripts/setup.sh --test`, which installs Debian\'s postgresql, or set PG_BIN');
}

export async function startPostgresCluster(opts: { settings?: Record<string, string> } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  // As the postgres user when root; `--` ends runuser's options.
  const run = (cmd: string, args: string[]) => (asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' }));
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: dir, fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '200', ...opts.settings };
  const options = Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`).join(' ');
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${port} ${options}`, '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir: data,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
