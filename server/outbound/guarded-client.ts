import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { refusalOf } from './address-policy.js';

/**
 * The one client for requests to an address a tenant chose (today: the agency's alert webhook).
 * Server-side request forgery is refused where it can actually happen, on the address connected
 * to: a literal host is checked before connecting, a name inside the socket's own DNS lookup, so
 * the address checked is the address used (a rebinding answer gets no second, unchecked lookup).
 * Redirects are never followed, and no connection is pooled across requests.
 *
 * What a refusal or a failure says is a class ("private address", "connection refused"), never an
 * address, a port or an error text from the network, so a tenant cannot map the server's network
 * from its alert attempts.
 */

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface OutboundOptions {
  /** OUTBOUND_ALLOW_PRIVATE: development and the test suite only; unsafe where tenants share a server */
  allowPrivate: boolean;
  /** DNS resolution (default: the system resolver, as the socket would use it) */
  resolve?: Resolve;
  /** deadline of one request, connect to response headers */
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
}

export interface Outbound {
  /** Why a request to this URL would be refused now, or null: for saving a URL (delivery checks again). */
  check(url: string): Promise<string | null>;
  post(url: string, req: { headers: Record<string, string>; body: string }): Promise<OutboundResponse>;
}

/** The target's address is not a public one: nothing was sent. */
export class OutboundRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`refused: ${reason}`);
    this.name = 'OutboundRefusedError';
  }
}

/** The target could not be reached or did not answer; `reason` says which in a few words. */
export class OutboundFailedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutboundFailedError';
  }
}

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** How long a save waits for DNS before it leaves the decision to delivery. */
const SAVE_LOOKUP_MS = 3000;

export function outboundClient(opts: OutboundOptions): Outbound {
  const resolve = opts.resolve ?? systemResolve;
  const timeoutMs = opts.timeoutMs ?? 10_000;

  const refusalOfAddresses = (addresses: { address: string }[]) => {
    if (opts.allowPrivate) return null;
    for (const a of addresses) {
      const reason = refusalOf(a.address);
      if (reason) return reason;
    }
    return null;
  };

  /** net.connect's lookup hook: resolve, refuse if any answer is internal, hand back what was checked. */
  const guardedLookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname).then(
      (found) => {
        const addresses = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (addresses.length === 0) return callback(Object.assign(new Error('name not found'), { code: 'ENOTFOUND' }), '');
        // Any internal answer refuses the name: a name that also points inside is not a public target.
        const refused = refusalOfAddresses(found);
        if (refused) return callback(new OutboundRefusedError(refused), '');
        if (options.all) return callback(null, addresses);
        const [first] = addresses as [{ address: string; family: number }];
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  return {
    async check(raw) {
      const url = parse(raw);
      if (typeof url === 'string') return url;
      if (opts.allowPrivate) return null;
      const host = hostOf(url);
      if (net.isIP(host)) return refusalOf(host);
      const found = await Promise.race([resolve(host).catch(() => null), new Promise<null>((r) => AbortSignal.timeout(SAVE_LOOKUP_MS).addEventListener('abort', () => r(null)))]);
      // A name that does not resolve now cannot be judged now; delivery checks what it resolves to then.
      return found ? refusalOfAddresses(found) : null;
    },

    post(raw, req) {
      const url = parse(raw);
      if (typeof url === 'string') return Promise.reject(new OutboundRefusedError(url));
      const host = hostOf(url);
      if (net.isIP(host) && !opts.allowPrivate) {
        const reason = refusalOf(host);
        if (reason) return Promise.reject(new OutboundRefusedError(reason));
      }
      const transport = url.protocol === 'https:' ? https : http;
      return new Promise<OutboundResponse>((resolvePromise, reject) => {
        const request = transport.request(url, {
          method: 'POST',
          headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
          agent: false,
          lookup: guardedLookup as unknown as net.LookupFunction,
          signal: AbortSignal.timeout(timeoutMs),
        });
        request.on('response', (res) => {
          // Only the status matters; the body (and anything a redirect's Location names) is not read.
          resolvePromise({ status: res.statusCode ?? 0 });
          res.destroy();
        });
        request.on('error', (err) => reject(err instanceof OutboundRefusedError ? err : new OutboundFailedError(describeFailure(err))));
        request.end(req.body);
      });
    },
  };
}

function parse(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs';
  return url;
}

/** The WHATWG parser has already turned 2130706433, 0x7f.1 and 127.1 into 127.0.0.1; IPv6 keeps its brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** A failure in a few words a tenant may read: no address, port or resolver detail. */
export function describeFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || e?.code === 'ABORT_ERR') return 'no answer in time';
  switch (e?.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
      return 'name not found';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'host unreachable';
    default:
      if (typeof e?.code === 'string' && (e.code.startsWith('ERR_TLS') || e.code.includes('CERT') || e.code.startsWith('ERR_SSL'))) return 'TLS handshake failed';
      return 'network error';
  }
}
