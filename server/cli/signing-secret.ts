import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { openStore } from '../compose.js';

const usage = `usage:
  npm run signing-secret -- reveal --agency <id>                      prints the current secret, the first time only
  npm run signing-secret -- rotate --agency <id> [--grace-seconds N]  prints a new secret; the old one verifies N s more
                                                                       (default WEBHOOK_SECRET_GRACE_SECONDS, 86400)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

/**
 * The agency's webhook signing secret (call and contact events are signed with it) from the
 * command line, as `POST /api/agency/signing-secret/{reveal,rotate}` does over HTTP. The secret goes
 * to stdout alone, so a script can capture it; everything else goes to stderr.
 */
async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({ args: rest, options: { agency: { type: 'string' }, 'grace-seconds': { type: 'string' } } });
  if (!values.agency) fail('--agency is required');
  const config = loadConfig();
  const store = await openStore(config, pino({ level: 'silent' }));
  const agencies = store.agencies;
  if (!(await agencies.get(values.agency))) fail(`no agency ${values.agency} in ${config.databaseUrl ? 'the database at DATABASE_URL' : config.dataDir}`);
  switch (command) {
    case 'reveal': {
      const secret = await agencies.revealSigningSecret(values.agency);
      if (!secret) fail(`the signing secret of ${values.agency} was already shown once; rotate it to get a new one`);
      process.stderr.write(`signing secret of ${values.agency} (shown once; sign X-Signature with it):\n`);
      process.stdout.write(`${secret}\n`);
      break;
    }
    case 'rotate': {
      const raw = values['grace-seconds'];
      const grace = raw === undefined ? config.webhookSecretGraceSeconds : Number(raw);
      if (!Number.isInteger(grace) || grace < 0 || grace > 30 * 86_400) fail('--grace-seconds must be an integer from 0 to 2592000');
      const { secret, previousValidUntil } = await agencies.rotateSigningSecret(values.agency, grace);
      process.stderr.write(`new signing secret of ${values.agency} (shown once); the previous one verifies until ${previousValidUntil}:\n`);
      process.stdout.write(`${secret}\n`);
      break;
    }
    default:
      fail(`unknown command ${command ?? '(none)'}`);
  }
  await store.close();
}

void main();
