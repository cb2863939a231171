/**
 * Renders `{{path.to.value}}` tokens against a context object. Unknown tokens render as empty text
 * rather than the raw token, so a contact never receives "{{contact.firstName}}" in an SMS.
 * Pure: the post-call activities and the editor's preview share it.
 */
const TOKEN = /\{\{\s*([a-zA-Z0-9_.-]+)\s*\}\}/g;

export function lookup(ctx: unknown, path: string): unknown {
  let cur: unknown = ctx;
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

export function renderTemplate(text: string, ctx: unknown): string {
  return text.replace(TOKEN, (_, path: string) => {
    const v = lookup(ctx, path);
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** Renders every string inside a config, deeply. */
export function renderConfig<T>(config: T, ctx: unknown): T {
  if (typeof config === 'string') return renderTemplate(config, ctx) as T;
  if (Array.isArray(config)) return config.map((v) => renderConfig(v, ctx)) as T;
  if (config && typeof config === 'object') {
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, renderConfig(v, ctx)])) as T;
  }
  return config;
}
