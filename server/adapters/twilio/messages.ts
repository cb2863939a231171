/** Pure reading of Twilio Message resources (2010-04-01 API). */

export interface TwilioMessage {
  sid: string;
  to: string | null;
  from: string | null;
  body: string | null;
  status: string;
  direction: string;
  /** RFC 2822, e.g. `Thu, 24 Aug 2023 05:01:45 +0000` */
  dateCreated: string | null;
}

export function toTwilioMessage(raw: unknown): TwilioMessage | null {
  const m = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (typeof m.sid !== 'string' || !m.sid) return null;
  const s = (v: unknown) => (typeof v === 'string' ? v : null);
  return { sid: m.sid, to: s(m.to), from: s(m.from), body: s(m.body), status: s(m.status) ?? 'queued', direction: s(m.direction) ?? '', dateCreated: s(m.date_created) };
}

export function toTwilioMessages(raw: unknown): TwilioMessage[] {
  const list = (raw && typeof raw === 'object' ? (raw as { messages?: unknown }).messages : null) ?? [];
  return (Array.isArray(list) ? list : []).map(toTwilioMessage).filter((m): m is TwilioMessage => m !== null);
}

/** Numbers compare by digits: Twilio answers E.164, a campaign may have stored `+1 (512) 555-0100`. */
export const sameNumber = (a: string | null, b: string | null) => !!a && !!b && a.replace(/\D/g, '') === b.replace(/\D/g, '');

/** The message this send would have created: outbound, same recipient and text, created since `sinceMs`. */
export function isSameSend(m: TwilioMessage, send: { to: string; body: string }, sinceMs: number): boolean {
  const created = m.dateCreated ? Date.parse(m.dateCreated) : NaN;
  return m.direction.startsWith('outbound') && sameNumber(m.to, send.to) && m.body === send.body && created >= sinceMs;
}
