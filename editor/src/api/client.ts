/**
 * The app talks to the public API only, with the key the admin signed in with, through one typed
 * client: openapi-fetch over the types generated from the API's OpenAPI document
 * (schema.gen.ts, `npm run api-types`), so every path, parameter, body and answer is checked
 * against what the server declares. Nothing here knows about React.
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema.gen';

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
  /** the key may not do this (role, scope, or a project it was not given) */
  get isForbidden() {
    return this.status === 403;
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

/**
 * The typed client. `fetch` is looked up at each request (not when the client is made) and the
 * key is read from the session then, so signing in again needs no new client.
 */
export const client = createClient<paths>({
  // Absolute, as Request needs one outside a page (the model tests run in Node).
  baseUrl: typeof location === 'undefined' ? 'http://localhost' : location.origin,
  fetch: (request) => {
    request.headers.set('authorization', `Bearer ${session.get() ?? ''}`);
    return globalThis.fetch(request);
  },
});

type Answered<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or an ApiError for any non-2xx answer (a 401 also sends the app to sign-in). */
export async function answer<T>(request: Promise<Answered<T>>): Promise<NonNullable<T>> {
  const { data, error, response } = await request;
  if (!response.ok) {
    if (response.status === 401) {
      if (onUnauthorized) onUnauthorized();
      else missedUnauthorized = true;
    }
    const body = typeof error === 'object' && error !== null ? (error as ApiError['body']) : { message: typeof error === 'string' && error ? error : `HTTP ${response.status}` };
    throw new ApiError(response.status, body);
  }
  return data as NonNullable<T>;
}
