import { vendorHttp, type VendorHttp, type VendorRequest } from '../vendor-http.js';

/**
 * LeadConnector v2 wants a `Version` header per API family (its docs pin one value per app); a wrong
 * one is refused, so the family is named at each call and the value is written only here.
 */
export const GHL_VERSION = {
  contacts: '2021-07-28',
  opportunities: '2021-07-28',
  locations: '2021-07-28',
  calendars: '2021-04-15',
  conversations: '2021-04-15',
} as const;
export type GhlApi = keyof typeof GHL_VERSION;

export const GHL_BASE_URL = 'https://services.leadconnectorhq.com';

export interface GhlClientOptions {
  baseUrl?: string;
  /** a location's Private Integration token or OAuth access token, asked per request (refresh) */
  token: () => Promise<string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface GhlClient {
  call<T = unknown>(api: GhlApi, req: Omit<VendorRequest, 'headers'>): Promise<T>;
}

export function ghlClient(opts: GhlClientOptions): GhlClient {
  const http: VendorHttp = vendorHttp({
    vendor: 'gohighlevel',
    baseUrl: opts.baseUrl ?? GHL_BASE_URL,
    auth: async () => ({ authorization: `Bearer ${await opts.token()}` }),
    fetch: opts.fetch,
    timeoutMs: opts.timeoutMs,
    // GoHighLevel's burst limit is counted per 10 s window; without a Retry-After, wait one window.
    defaultRetryAfterMs: 10_000,
  });
  return {
    call: (api, req) => http.request({ ...req, headers: { Version: GHL_VERSION[api] } }),
  };
}

/** A path segment from an id we were given: never let an id reshape the path. */
export const seg = (id: string) => encodeURIComponent(id);
