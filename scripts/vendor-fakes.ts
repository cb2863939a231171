/**
 * The stateful vendor fakes of test/fakes (GoHighLevel, Twilio, Vapi) on free local ports, for runs
 * that drive the whole product without the internet (scripts/schemathesis.sh): prints one JSON line
 * `{ "gohighlevel": url, "twilio": url, "vapi": url }` once all listen, and runs until killed.
 */
import { startGohighlevelFake } from '../test/fakes/gohighlevel-fake.js';
import { startTwilioFake } from '../test/fakes/twilio-fake.js';
import { startVapiFake } from '../test/fakes/vapi-fake.js';

const [gohighlevel, twilio, vapi] = await Promise.all([
  startGohighlevelFake({ token: 'pit-fuzz-token-0000000000' }),
  startTwilioFake({ accountSid: `AC${'0'.repeat(32)}`, authToken: 'fuzz-auth-token-0000' }),
  startVapiFake(),
]);
process.stdout.write(`${JSON.stringify({ gohighlevel: gohighlevel.url, twilio: twilio.url, vapi: vapi.url })}\n`);
const stop = async () => {
  await Promise.all([gohighlevel.close(), twilio.close(), vapi.close()]);
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
