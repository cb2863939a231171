import type { Logger } from 'pino';
import { normalizeOutcome } from '../../engine/cadence/index.js';
import type { VoicePlatform } from '../../engine/ports.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, signPayload } from '../domain/event-signature.js';

export interface SandboxVoiceOptions {
  /**
   * Where an API listens (asked at report time): the sandbox reports call ends to its real events
   * endpoint. Several: a report that fails at one is tried at the next (API processes on other
   * hosts, one of them down).
   */
  baseUrl: string | readonly string[] | (() => string | readonly string[]);
  /** the agency's event signing secret */
  secretOf(agencyId: string): Promise<string | undefined>;
  /** how long a call lasts before its end is reported */
  callSeconds: number;
  /** the outcomes reported, in turn per lead: VOICEMAIL then SUCCESS by default */
  outcomes: readonly string[];
  logger: Logger;
}

const TRANSCRIPTS: Record<string, string> = {
  VOICEMAIL: 'Agent: Hi, this is the front desk calling.\nLead: (voicemail greeting)\nAgent: Sorry we missed you, please call us back.',
  SUCCESS: 'Agent: Hi, this is the front desk calling.\nLead: Hello!\nAgent: Would you like to book a visit?\nLead: Yes, the day after tomorrow works.\nAgent: You are booked.',
  CALLBACK: 'Agent: Hi, this is the front desk calling.\nLead: I am busy, call me back in an hour.\nAgent: Will do.',
  NO_ACTION: 'Agent: Hi, this is the front desk calling.\nLead: No thanks.\nAgent: Understood, have a good day.',
};

/** Recorded fields a real agent would record for the outcome, so post-call chains have data to act on. */
function fieldsFor(outcome: string, endedAt: number): { key: string; value: string }[] {
  const fields = [{ key: 'call_outcome', value: outcome }];
  if (outcome === 'SUCCESS') {
    // Two days out, on the minute: distinct calls book distinct slots.
    const slot = new Date(Math.ceil((endedAt + 2 * 86_400_000) / 60_000) * 60_000);
    fields.push({ key: 'appointment_time', value: slot.toISOString() });
  }
  if (outcome === 'CALLBACK') fields.push({ key: 'callback_time', value: new Date(endedAt + 3_600_000).toISOString() });
  return fields;
}

/**
 * The built-in voice platform: a call "lasts" `callSeconds`, then the platform posts a signed
 * `call.ended` event to the API's real events endpoint, exactly as a real platform's webhook
 * would, with a transcript, recorded fields and the lead's next outcome from the script.
 * A repeated request for the same call id (a retried activity) places nothing new.
 */
export function sandboxVoice(opts: SandboxVoiceOptions): VoicePlatform & { close(): void } {
  const placed = new Set<string>();
  const attempts = new Map<string, number>();
  let next = 0;
  const timers = new Set<NodeJS.Timeout>();
  const script = (opts.outcomes.length > 0 ? opts.outcomes : ['VOICEMAIL', 'SUCCESS']).map((o) => {
    const outcome = normalizeOutcome(o);
    if (!outcome) throw new Error(`SANDBOX_OUTCOMES: "${o}" is not an outcome (VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER, RESCHEDULE)`);
    return outcome;
  });

  async function report(agencyId: string, event: unknown, callId: string) {
    const secret = await opts.secretOf(agencyId);
    if (!secret) return opts.logger.warn({ agencyId, callId }, 'sandbox voice: no signing secret for the agency; call end not reported');
    const raw = JSON.stringify(event);
    const given = typeof opts.baseUrl === 'function' ? opts.baseUrl() : opts.baseUrl;
    const bases = typeof given === 'string' ? [given] : given;
    const first = next++;
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const base = bases[(first + attempt - 1) % bases.length]!;
        const res = await fetch(`${base}/api/events/calls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [AGENCY_HEADER]: agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw) },
          body: raw,
        });
        if (res.ok) return;
        // A 4xx will not get better by repeating it.
        if (res.status < 500) return opts.logger.warn({ callId, status: res.status, body: await res.text() }, 'sandbox voice: call end refused');
      } catch (err) {
        opts.logger.warn({ err, callId, attempt }, 'sandbox voice: reporting the call end failed');
      }
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }

  return {
    async placeCall(req) {
      if (placed.has(req.callId)) return { callId: req.callId };
      placed.add(req.callId);
      // A lead's n-th attempt is in its call id (engine/workflows/lead-cadence-types.ts), so every
      // worker process scripts the same outcome for it, whichever placed the earlier attempts.
      const numbered = req.leadId && req.callId.startsWith(`${req.leadId}-`) ? Number(req.callId.slice(req.leadId.length + 1)) : NaN;
      const who = req.leadId ?? req.contactId;
      const n = Number.isInteger(numbered) && numbered > 0 ? numbered - 1 : (attempts.get(who) ?? 0);
      attempts.set(who, n + 1);
      const outcome = script[n % script.length]!;
      opts.logger.info({ callId: req.callId, to: req.to, from: req.from, outcome }, 'sandbox voice: calling');
      const timer = setTimeout(() => {
        timers.delete(timer);
        const endedAt = Date.now();
        const event = {
          type: 'call.ended',
          call: {
            callId: req.callId,
            campaignId: req.campaignId,
            contactId: req.contactId,
            ...(req.leadId && { leadId: req.leadId }),
            phoneNumber: req.to,
            direction: 'outbound',
            status: 'ended',
            dateTime: new Date(endedAt).toISOString(),
            duration: opts.callSeconds,
            cost: 0,
            disposition: outcome,
            callSummary: `Sandbox call ended with ${outcome}.`,
            transcript: TRANSCRIPTS[outcome] ?? `Agent: Hi, this is the front desk calling.\nLead: (${outcome})`,
            transcriptSource: 'live',
            fields: fieldsFor(outcome, endedAt),
          },
        };
        void report(req.agencyId, event, req.callId);
      }, opts.callSeconds * 1000);
      timers.add(timer);
      return { callId: req.callId };
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
