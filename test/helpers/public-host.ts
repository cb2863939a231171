import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

/**
 * A host at a public IPv4 address, on this machine: a network namespace joined to the host by a
 * veth pair, with a route from the host to one address of the public range, and an HTTP receiver
 * listening there. The product's guarded client, with private targets refused, reaches it as it
 * would reach a customer's server on the internet, so "a public target is still delivered" is
 * tested on a real connection rather than a stubbed resolver. Needs root and iproute2 (the setup
 * of this machine kind, and of CI, has both); without them it fails loudly, never skips.
 *
 * The receiver answers 204 on any path, and `GET|POST /redirect?to=<url>` with a 302 to that URL.
 */
export interface PublicHost {
  address: string;
  url(path: string): string;
  received: { method: string; path: string; headers: Record<string, string>; body: string }[];
  close(): void;
}

const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip'].find((p) => fs.existsSync(p)) ?? 'ip';

const RECEIVER = `
const http = require('node:http');
http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    process.stdout.write(JSON.stringify({ method: req.method, path: req.url, headers: req.headers, body }) + '\\n');
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/redirect') { res.writeHead(302, { location: u.searchParams.get('to') }); return res.end(); }
    res.writeHead(204); res.end();
  });
}).listen(8080, '0.0.0.0', () => process.stdout.write('listening\\n'));
`;

export async function startPublicHost(): Promise<PublicHost> {
  const id = `${process.pid % 100_000}`;
  const ns = `vcpub${id}`;
  const hostSide = `vch${id}`;
  const nsSide = `vcn${id}`;
  // 93.184.0.0/16 is ordinary global unicast (no special-purpose range), never routed from here otherwise.
  const address = `93.184.${(process.pid >> 8) % 250}.${10 + (process.pid % 200)}`;
  const ip = (...args: string[]) => execFileSync(IP, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const cleanup = () => {
    try {
      ip('netns', 'del', ns);
    } catch {
      /* not there */
    }
    try {
      ip('link', 'del', hostSide);
    } catch {
      /* went with the namespace */
    }
  };
  cleanup();
  try {
    ip('netns', 'add', ns);
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide);
    ip('link', 'set', nsSide, 'netns', ns);
    ip('link', 'set', hostSide, 'up');
    ip('route', 'add', `${address}/32`, 'dev', hostSide);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    ip('-n', ns, 'link', 'set', nsSide, 'up');
    ip('-n', ns, 'addr', 'add', `${address}/32`, 'dev', nsSide);
    ip('-n', ns, 'route', 'add', 'default', 'dev', nsSide);
  } catch (err) {
    cleanup();
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`could not make the public test host (needs root and iproute2): ${e.stderr?.toString() || e.message}`);
  }
  const child: ChildProcess = spawn(IP, ['netns', 'exec', ns, process.execPath, '-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const received: PublicHost['received'] = [];
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the public test host's receiver exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'listening') return resolve();
      received.push(JSON.parse(line));
    });
  });
  return {
    address,
    url: (path) => `http://${address}:8080${path}`,
    received,
    close() {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
      cleanup();
    },
  };
}
