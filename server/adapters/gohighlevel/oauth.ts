import { vendorHttp } from '../vendor-http.js';
import { GHL_BASE_URL } from './client.js';

export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
}

interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
}

/**
 * Exchanges a refresh token for new OAuth tokens (`POST /oauth/token`, form-encoded, as
 * HighLevel's OAuth 2.0 docs and official SDK describe it: client id and secret, `grant_type`
 * `refresh_token`, `user_type` `Location`). A refresh token is single-use: the caller stores the
 * new pair at once.
 */
export async function refreshAccessToken(opts: { baseUrl?: string; clientId: string; clientSecret: string; refreshToken: string; fetch?: typeof fetch; now?: number }): Promise<OAuthTokens> {
  // The client secret and refresh token travel in the body: scrubbed from any error all the same.
  const http = vendorHttp({ vendor: 'gohighlevel', baseUrl: opts.baseUrl ?? GHL_BASE_URL, auth: async () => ({}), secrets: [opts.clientSecret, opts.refreshToken], fetch: opts.fetch });
  const res = await http.request<TokenResponse>({
    method: 'POST',
    path: '/oauth/token',
    form: { client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'refresh_token', refresh_token: opts.refreshToken, user_type: 'Location' },
  });
  if (!res.access_token || !res.refresh_token) throw new Error('gohighlevel: the token endpoint answered without tokens');
  const now = opts.now ?? Date.now();
  return { accessToken: res.access_token, refreshToken: res.refresh_token, expiresAt: new Date(now + (res.expires_in ?? 86_400) * 1000).toISOString() };
}
