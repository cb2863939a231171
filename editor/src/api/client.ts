/** The editor talks to the public API only, with the key the admin signed in with. */
const KEY = 'vc.apiKey';

export const session = {
  get: () => sessionStorage.getItem(KEY),
  set: (key: string) => sessionStorage.setItem(KEY, key),
  clear: () => sessionStorage.removeItem(KEY),
};

/** An API error envelope `{ success:false, error, message }` (spec 7), with the HTTP status. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public body: { error?: string; code?: string; message?: string },
  ) {
    super(body?.message ?? body?.error ?? `HTTP ${status}`);
  }
  get isConflict() {
    return this.status === 409;
  }
  get isValidation() {
    return this.status === 400;
  }
  /** the project must be reconnected to its CRM before CRM data can be read */
  get isDisconnected() {
    return this.status === 409 && this.body?.code === 'Disconnected';
  }
}

/**
 * Called on every 401 so the app can go back to sign-in. A 401 that comes before the app has set
 * its handler (the reads main.tsx starts while the app loads) is passed on when it does.
 */
let onUnauthorized: (() => void) | null = null;
let missedUnauthorized = false;
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn;
  if (missedUnauthorized) {
    missedUnauthorized = false;
    fn();
  }
}

async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${session.get() ?? ''}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) {
    const text = await res.text();
    let parsed: { error?: string; message?: string } = { message: text || `HTTP ${res.status}` };
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text as the message */
    }
    if (res.status === 401) {
      if (onUnauthorized) onUnauthorized();
      else missedUnauthorized = true;
    }
    throw new ApiError(res.status, parsed);
  }
  return res;
}

export async function api<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  const res = await request(method, path, body, headers);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export async function apiText(method: string, path: string): Promise<string> {
  const res = await request(method, path);
  return res.text();
}
