import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestPki {
  dir: string;
  /** file paths, PEM */
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  remove(): void;
}

/**
 * A certificate authority of its own and, signed by it, a server certificate for localhost /
 * 127.0.0.1 and a client certificate (CN=`clientName`), made with the openssl command line.
 */
export function makeTestPki(clientName = 'voice-campaigns-worker'): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-pki-'));
  const at = (f: string) => path.join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=test-ca', '-keyout', 'ca.key', '-out', 'ca.pem');
  const leaf = (name: string, cn: string, ext: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    fs.writeFileSync(at(`${name}.ext`), ext);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.pem`);
  };
  leaf('server', 'localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  leaf('client', clientName, 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    ca: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
