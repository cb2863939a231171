import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';

/**
 * The one HTTP client under every vendor adapter: base URL, auth and version headers, a deadline per
 * request, JSON or form bodies, and one classification of what a vendor answered, so that every
 * adapter fails the same way for the same cause (spec 3.1: a rejected credential disconnects the
 * project; a 429 waits as long as the vendor asked; a timeout leaves the outcome unknown).
 *
 * Credentials never reach a message: the auth header's value (and, for Basic auth, its decoded
 * parts) is scrubbed from anything this module puts into an error.
 */

export type QueryValue = string | number | boolean | undefined | null;

export interface VendorRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path below the base URL, e.g. `/contacts/abc/tags` (segments already encoded) */
  path: string;
  query?: Record<string, QueryValue>;
  /** extra headers for this request, e.g. GoHighLevel's `Version` */
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string | undefined>;
}

export interface VendorHttpOptions {
  /** names the vendor in errors: `gohighlevel`, `twilio` */
  vendor: string;
  baseUrl: string;
  /** the auth headers, asked per request so a refreshed token is picked up */
  auth: () => Promise<Record<string, string>>;
  fetch?: typeof fetch;
  /** deadline of one request, response body included (default 15 s) */
  timeoutMs?: number;
  /** wait to report on a 429 that carries no usable Retry-After (default 5 s) */
  defaultRetryAfterMs?: number;
  /** secrets sent outside the auth headers (an OAuth client secret in a form body), scrubbed from errors too */
  secrets?: string[];
}

/** A definite refusal with the vendor's status kept, for callers that treat one status specially (404 → null). */
export class VendorRefusedError extends PermanentPortError {
  constructor(
    readonly vendor: string,
    readonly status: number,
    readonly vendorMessage: string,
    message: string,
    /** the vendor's own error code when its body carries one (Twilio's `code`: 21422 is "number not available") */
    readonly vendorCode: number | string | null = null,
  ) {
    super(message);
    this.name = 'VendorRefusedError';
  }
}

export interface VendorHttp {
  request<T = unknown>(req: VendorRequest): Promise<T>;
}

export function vendorHttp(opts: VendorHttpOptions): VendorHttp {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const base = opts.baseUrl.replace(/\/+$/, '');
  return {
    async request<T>(req: VendorRequest): Promise<T> {
      const authHeaders = await opts.auth();
      const secrets = [...secretsOf(authHeaders), ...(opts.secrets ?? [])].sort((a, b) => b.length - a.length);
      const scrub = (text: string) => redact(text, secrets);
      const what = `${opts.vendor} ${req.method} ${req.path}`;
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers, ...authHeaders };
      let body: string | undefined;
      if (req.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.json);
      } else if (req.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = formEncode(req.form);
      }
      let res: Response;
      let text: string;
      try {
        res = await doFetch(base + req.path + queryString(req.query), { method: req.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
        text = await res.text();
      } catch (err) {
        if (isTimeout(err)) {
          throw new VendorTimeoutError(opts.vendor, timeoutMs, `${what}: no answer within ${timeoutMs} ms; the vendor may or may not have acted`);
        }
        throw new Error(scrub(`${what}: network error: ${describeNetworkError(err)}`));
      }
      if (res.ok) return parseJson(text) as T;
      throw classifyResponse({
        vendor: opts.vendor,
        what,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: text,
        now: Date.now(),
        defaultRetryAfterMs: opts.defaultRetryAfterMs ?? 5_000,
        scrub,
      });
    },
  };
}

/**
 * What a non-2xx answer means for the caller. Pure: the status, the Retry-After header and the body
 * decide. 401 and a 403 about the token itself → the credential is rejected; 429 → slow down; 5xx →
 * transient; any other 4xx → permanent, with the vendor's own words.
 */
export function classifyResponse(r: {
  vendor: string;
  what: string;
  status: number;
  retryAfter: string | null;
  body: string;
  now: number;
  defaultRetryAfterMs: number;
  scrub?: (s: string) => string;
}): Error {
  const scrub = r.scrub ?? ((s: string) => s);
  const vendorMessage = scrub(vendorMessageOf(r.body) ?? '');
  const said = vendorMessage ? `: ${vendorMessage}` : '';
  const head = `${r.what} → HTTP ${r.status}`;
  if (r.status === 401 || (r.status === 403 && TOKEN_REFUSAL.test(vendorMessage))) {
    return new CredentialRejectedError(r.vendor, `${head}: ${r.vendor} rejected the credential${said}`);
  }
  if (r.status === 429) {
    const retryAfterMs = parseRetryAfter(r.retryAfter, r.now) ?? r.defaultRetryAfterMs;
    return new RateLimitedError(r.vendor, retryAfterMs, `${head}: rate limited, retry after ${retryAfterMs} ms${said}`);
  }
  if (r.status >= 500) return new Error(`${head}${said}`);
  return new VendorRefusedError(r.vendor, r.status, vendorMessage, `${head}${said}`, vendorCodeOf(r.body));
}

/** 403 bodies that blame the token (invalid, expired, missing a scope) rather than the resource. */
const TOKEN_REFUSAL = /token|scope|credential|api key|unauthori[sz]ed|authenticat/i;

/** `Retry-After` is seconds or an HTTP-date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value == null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** The vendor's own explanation: `message` (string or list), `error` (string or object), `detail`. */
export function vendorMessageOf(body: string): string | null {
  const parsed = parseJson(body);
  if (parsed && typeof parsed === 'object') {
    const o = parsed as Record<string, unknown>;
    const pick = (v: unknown): string | null => {
      if (typeof v === 'string' && v.trim()) return v.trim();
      if (Array.isArray(v) && v.length) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('; ');
      if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') return (v as { message: string }).message;
      return null;
    };
    let msg = pick(o.message) ?? pick(o.error_message) ?? pick(o.error) ?? pick(o.detail) ?? pick(o.title);
    if (msg && typeof o.code === 'number' && !msg.includes(String(o.code))) msg = `${msg} (code ${o.code})`;
    // Field-level reasons (`errors: [{ message }]`, problem+json `validation: [...]`) say what was wrong.
    const reasons = [...arrayOf(o.errors), ...arrayOf(o.validation)]
      .map((x) => (typeof x === 'string' ? x : typeof (x as { message?: unknown })?.message === 'string' ? (x as { message: string }).message : null))
      .filter((x): x is string => !!x);
    if (reasons.length) msg = [msg, reasons.join('; ')].filter(Boolean).join(': ');
    return msg;
  }
  const t = body.trim();
  return t && t.length <= 500 && !t.startsWith('<') ? t : null;
}

const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A top-level `code` of the error body (a number, or a non-empty string), else null. */
export function vendorCodeOf(body: string): number | string | null {
  const parsed = parseJson(body);
  const code = parsed && typeof parsed === 'object' ? (parsed as { code?: unknown }).code : undefined;
  return typeof code === 'number' || (typeof code === 'string' && code !== '') ? code : null;
}

function parseJson(text: string): unknown {
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function queryString(q: Record<string, QueryValue> | undefined): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) p.append(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

function formEncode(form: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) p.append(k, v);
  return p.toString();
}

function isTimeout(err: unknown): boolean {
  const e = err as { name?: string; cause?: { name?: string } } | null;
  return e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError';
}

function describeNetworkError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } } | null;
  return [e?.cause?.code, e?.cause?.message ?? e?.message].filter(Boolean).join(' ') || String(err);
}

/** The auth header values and their parts (a bearer token, Basic auth's decoded user and password). */
export function secretsOf(authHeaders: Record<string, string>): string[] {
  const out: string[] = [];
  for (const value of Object.values(authHeaders)) {
    out.push(value);
    const [scheme, rest] = [value.split(' ')[0]!, value.split(' ').slice(1).join(' ')];
    if (rest) out.push(rest);
    if (/^basic$/i.test(scheme) && rest) {
      // the user part (Twilio's account SID) is an identifier that also sits in request paths; the password is the secret
      const decoded = Buffer.from(rest, 'base64').toString('utf8');
      out.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
    }
  }
  // Short fragments (an empty user, "Bearer") would blank out innocent words; nothing that short is a secret.
  return [...new Set(out)].filter((s) => s.length >= 8).sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out;
}
