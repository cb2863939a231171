/**
 * The sandbox voice platform from worker processes on hosts of their own: it reports a call's end
 * to an API wherever that runs (API_URL, several tried in turn), and a lead's n-th attempt gets the
 * script's n-th outcome whichever worker placed the earlier attempts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxVoice } from '../../server/adapters/sandbox-voice.js';
import { createLogger } from '../../server/logger.js';
import { verify } from '../../server/domain/event-signature.js';
import { freePort } from '../../server/temporal/launcher.js';

const SECRET = 'whsec-sandbox-voice-test';
let api: http.Server;
let apiUrl = '';
const received: { callId: string; disposition: string; verified: boolean }[] = [];
let arrived: (() => void) | null = null;

beforeAll(async () => {
  api = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const event = JSON.parse(raw) as { call: { callId: string; disposition: string } };
      let verified = true;
      try {
        verify([SECRET], String(req.headers['x-signature'] ?? ''), raw, 300);
      } catch {
        verified = false;
      }
      received.push({ callId: event.call.callId, disposition: event.call.disposition, verified });
      res.writeHead(202).end();
      arrived?.();
    });
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => api?.close(r)));

const worker = (baseUrl: readonly string[]) => sandboxVoice({ baseUrl, secretOf: async () => SECRET, callSeconds: 0, outcomes: ['VOICEMAIL', 'SUCCESS'], logger: createLogger('silent') });
const call = (leadId: string, attempt: number) => ({ agencyId: 'a1', callId: `${leadId}-${attempt}`, campaignId: 'c1', contactId: 'ct1', leadId, to: '+15125550123', from: null, variables: {} });
const nextReport = () => new Promise<void>((r) => (arrived = r));

it("a lead's attempts on two workers: the second worker scripts the second outcome", async () => {
  const [one, two] = [worker([apiUrl]), worker([apiUrl])];
  let got = nextReport();
  await one.placeCall(call('lead-x', 1));
  await got;
  got = nextReport();
  await two.placeCall(call('lead-x', 2));
  await got;
  expect(received.slice(-2)).toEqual([
    { callId: 'lead-x-1', disposition: 'VOICEMAIL', verified: true },
    { callId: 'lead-x-2', disposition: 'SUCCESS', verified: true },
  ]);
  one.close();
  two.close();
});

it('an API that does not answer: the report goes to the next one API_URL names', async () => {
  const down = `http://127.0.0.1:${await freePort()}`;
  const w = worker([down, apiUrl]);
  const got = nextReport();
  await w.placeCall(call('lead-y', 1));
  await got;
  expect(received.at(-1)).toEqual({ callId: 'lead-y-1', disposition: 'VOICEMAIL', verified: true });
  w.close();
});
