export interface HttpPoster {
  /** POSTs `body` (JSON) to `path`; resolves with the status and the response body as text. */
  post(path: string, body: string, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  close(): void;
}
export function httpPoster(origin: string): HttpPoster;
