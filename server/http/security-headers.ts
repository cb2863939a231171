import type { Middleware } from 'koa';

/**
 * Response headers that make the browser app hard to abuse: it may not be framed (clickjacking of
 * an admin holding an API key), may run only its own scripts and styles (an injected script has
 * nowhere to load from and inline script does not run), may talk only to this server, and sends
 * no Referer. The API's answers are data, never a page: not sniffed, not framed.
 *
 * The app's policy is written for what the Vite build emits: module scripts and a stylesheet from
 * /editor/assets, an inline SVG favicon (a data: URL), style changes through the CSSOM (React's
 * `style` props), which `style-src 'self'` permits. The browser tests fail on any violation.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** An API answer is never a document: nothing it carries may run or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const COMMON: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
];
const APP: [string, string][] = [...COMMON, ['Content-Security-Policy', APP_CSP]];
const API: [string, string][] = [...COMMON, ['Content-Security-Policy', API_CSP]];

export function securityHeaders(): Middleware {
  return async function securityHeadersMiddleware(ctx, next) {
    // Set before the handler runs, so error answers and streamed files carry them too.
    const headers = ctx.path === '/editor' || ctx.path.startsWith('/editor/') ? APP : API;
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}
