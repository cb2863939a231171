/**
 * Stand-in values that must never reach a contact (spec 2.10): text beginning `REPLACE-WITH-`,
 * text containing `CHANGE-ME`, and URLs whose host is a reserved documentation name
 * (RFC 2606 / RFC 6761: example.com, example.net, example.org and their subdomains, and the TLDs
 * .example, .test, .invalid, .localhost), with or without a scheme (`www.example.com/book` is one
 * too). Both markers match in any letter case. Only values are searched (not object keys); a bare
 * e-mail address is not a URL and is not flagged, nor are template tokens and run-context paths
 * (`call.fields.test`).
 */

export type StandInKind = 'replace-with' | 'change-me' | 'reserved-host';

export interface StandIn {
  /** where it sits, e.g. `config.tags[1]` */
  path: string;
  /** the offending string value */
  value: string;
  kind: StandInKind;
  /** for `reserved-host`: the host */
  host?: string;
  /** e.g. `unreplaced stand-in "REPLACE-WITH-NAME"` */
  reason: string;
}

const RESERVED_SECOND_LEVEL = ['example.com', 'example.net', 'example.org'];
const RESERVED_TLDS = ['example', 'test', 'invalid', 'localhost'];

/** Whether a host name is reserved for documentation/testing (RFC 2606, RFC 6761). */
export function isReservedHost(rawHost: string): boolean {
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  if (host === '') return false;
  if (RESERVED_SECOND_LEVEL.some((d) => host === d || host.endsWith(`.${d}`))) return true;
  const tld = host.slice(host.lastIndexOf('.') + 1);
  return RESERVED_TLDS.includes(tld);
}

// scheme://[userinfo@]host[:port][/?#...]; the host stops at the first of / ? # : or a space.
const URL_HOSTS = /\b[a-z][a-z0-9+.-]*:\/\/(?:[^\s/?#@]*@)?(\[[^\]\s]*\]|[^\s/?#:'"<>)\]]+)/gi;
// mailto:someone@host is a URL too
const MAILTO_HOSTS = /\bmailto:[^\s@]+@([^\s?#'"<>)\]]+)/gi;

const clip = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The stand-in in one string, or null. */
export function standInIn(value: string): Omit<StandIn, 'path'> | null {
  if (/^\s*REPLACE-WITH-/i.test(value)) return { value, kind: 'replace-with', reason: `unreplaced stand-in "${clip(value.trim())}"` };
  if (/CHANGE-ME/i.test(value)) return { value, kind: 'change-me', reason: `unreplaced stand-in "${clip(value.trim())}" (contains CHANGE-ME)` };
  for (const re of [URL_HOSTS, MAILTO_HOSTS]) {
    for (const m of value.matchAll(re)) {
      const host = m[1]!.replace(/^\[|\]$/g, '');
      if (isReservedHost(host)) {
        const url = value.slice(m.index).match(/^[^\s'"<>]+/)![0].replace(/[.,;:!?)\]]+$/, '');
        return { value, kind: 'reserved-host', host, reason: `unreplaced stand-in "${clip(url)}" (URL on the reserved documentation host ${host})` };
      }
    }
  }
  // A bare host (no scheme) of a reserved documentation domain is a stand-in as its URL is:
  // "www.example.com/book", "portal.test", "clinic.example". Template tokens and the run-context
  // paths conditions name (`call.fields.test`) are data, not hosts; e-mail addresses stay out.
  const text = value.replace(/\{\{[^}]*\}\}/g, ' ').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/gi, ' ');
  for (const m of text.matchAll(BARE_HOSTS)) {
    const host = m[1]!;
    if (RUN_CONTEXT_ROOTS.includes(host.slice(0, host.indexOf('.')).toLowerCase())) continue;
    if (isReservedHost(host)) {
      const shown = text.slice(m.index + m[0].indexOf(host)).match(/^[^\s'"<>]+/)![0].replace(/[.,;:!?)\]]+$/, '');
      return { value, kind: 'reserved-host', host, reason: `unreplaced stand-in "${clip(shown)}" (host on the reserved documentation domain ${host})` };
    }
  }
  return null;
}

// A dotted name not glued to a word, an "@" (e-mail) or a path before it, and not continued by
// another label after it ("www.example.com.au" is a real host).
const BARE_HOSTS = /(?:^|[^\w@./-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*)(?![\w-]|\.[\w-])/gi;
const RUN_CONTEXT_ROOTS = ['call', 'contact', 'custom_values', 'campaign', 'lead'];

/** Kept for callers that only need the words: the reason, or null. */
export function standInReason(value: string): string | null {
  return standInIn(value)?.reason ?? null;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const child = (path: string, key: string) => (IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** Every stand-in anywhere in a value (strings inside arrays and objects, deeply), with its path. */
export function findStandIns(value: unknown, path = 'config'): StandIn[] {
  if (typeof value === 'string') {
    const hit = standInIn(value);
    return hit ? [{ path, ...hit }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => findStandIns(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => findStandIns(v, child(path, k)));
  }
  return [];
}
