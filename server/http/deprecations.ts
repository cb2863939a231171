import type { Middleware } from 'koa';
import { DEPRECATIONS_PAGE, type RouteDef } from './route.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/**
 * The target of every `Link: <...>; rel="deprecation"` (RFC 9745 section 3): a page, built from the
 * route declarations, listing each deprecated operation with its replacement, the date it was
 * deprecated and its sunset date, one section per anchor the links name.
 */
export function deprecationsPage(routes: () => readonly RouteDef[]): Middleware {
  let html: string | undefined;
  const render = () => {
    const groups = new Map<string, RouteDef[]>();
    for (const def of routes()) if (def.deprecated) groups.set(def.deprecated.anchor, [...(groups.get(def.deprecated.anchor) ?? []), def]);
    const sections = [...groups].map(([anchor, defs]) => {
      const rows = defs.map((d) => {
        const path = d.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        const method = d.method.toUpperCase();
        return `<tr><td><code>${escape(`${method} ${path}`)}</code></td><td><code>${escape(`${method} ${d.deprecated!.replacedBy(path)}`)}</code></td><td>${day(d.deprecated!.since)}</td><td>${day(d.deprecated!.sunset)}</td></tr>`;
      });
      return `<section id="${escape(anchor)}"><h2>${escape(anchor.replace(/-/g, ' '))}</h2>
<table><thead><tr><th>Deprecated operation</th><th>Replacement</th><th>Deprecated on</th><th>Sunset (removed after)</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></section>`;
    });
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deprecated API routes</title></head><body>
<h1>Deprecated API routes</h1>
<p>Each deprecated route still works until its sunset date and answers with <code>Deprecation</code> (RFC 9745), <code>Sunset</code> (RFC 8594) and a <code>Link</code> to its successor. Move to the replacement before the sunset date.</p>
${sections.join('\n')}
</body></html>`;
  };
  return async function deprecationsPageMiddleware(ctx, next) {
    if (ctx.path !== DEPRECATIONS_PAGE || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = (html ??= render());
  };
}
