import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Vendor credentials at rest: AES-256-GCM with a 96-bit random IV per seal, and the row's identity
 * (agency, owner, provider) as additional authenticated data, so a sealed value copied onto another
 * row does not open. The key comes from `CREDENTIALS_KEY` (32 bytes, base64 or hex) or, when that
 * is unset, from `<DATA_DIR>/credentials.key`, generated once with owner-only permissions.
 */
export interface Sealer {
  /** short fingerprint of the key, stored beside each sealed value */
  keyId: string;
  seal(plain: string, aad: string): string;
  open(sealed: string, aad: string, keyId: string): string;
}

const KEY_FILE = 'credentials.key';

function parseKey(raw: string): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes, written as 64 hex digits or base64');
  return key;
}

/** The key from the environment, else the data directory's key file (made on first use, mode 0600). */
export function loadSealingKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) return parseKey(fromEnv);
  const file = path.join(dataDir, KEY_FILE);
  try {
    return parseKey(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  // 'wx': never overwrite a key another process wrote first; read theirs instead.
  try {
    fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return parseKey(fs.readFileSync(file, 'utf8'));
    throw err;
  }
}

export function createSealer(key: Buffer): Sealer {
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return {
    keyId,
    seal(plain, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed, aad, sealedWith) {
      if (sealedWith !== keyId) {
        throw new Error(`a stored credential was sealed with key ${sealedWith}, not the configured key ${keyId}: set CREDENTIALS_KEY to the key it was sealed with, or reconnect`);
      }
      const raw = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
