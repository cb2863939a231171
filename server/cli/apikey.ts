import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config.js';
import { openStore } from '../compose.js';
import { isActive, SCOPES, type Role, type Scope } from '../store/index.js';

const usage = `usage:
  npm run apikey -- create --agency <id> --role agency_admin|project_user --scopes <a,b,...|all> [--projects <id,...>] [--name <text>] [--expires <ISO date-time>]
  npm run apikey -- list --agency <id>
  npm run apikey -- revoke --agency <id> --id <keyId>

scopes: ${SCOPES.join(', ')}`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { agency: { type: 'string' }, role: { type: 'string' }, scopes: { type: 'string' }, projects: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, expires: { type: 'string' } },
  });
  if (!values.agency) fail('--agency is required');
  const config = loadConfig();
  const store = await openStore(config, pino({ level: 'silent' }));
  const keys = store.apiKeys;
  switch (command) {
    case 'create': {
      const role = values.role as Role;
      if (role !== 'agency_admin' && role !== 'project_user') fail('--role must be agency_admin or project_user');
      if (!values.scopes) fail('--scopes is required');
      const scopes = values.scopes === 'all' ? [...SCOPES] : values.scopes.split(',').map((x) => x.trim()).filter(Boolean);
      const unknown = scopes.filter((x) => !(SCOPES as readonly string[]).includes(x));
      if (unknown.length) fail(`unknown scope(s): ${unknown.join(', ')}`);
      const projectIds = values.projects ? values.projects.split(',').map((x) => x.trim()).filter(Boolean) : [];
      if (role === 'project_user' && projectIds.length === 0) fail('a project_user key needs --projects');
      const expiresAt = values.expires === undefined ? null : Date.parse(values.expires);
      if (expiresAt !== null && !(expiresAt > Date.now())) fail('--expires must be a date-time in the future');
      await store.agencies.ensure(values.agency, values.agency, config.defaultPlanLimit);
      const { key, secret } = await keys.create({ agencyId: values.agency, name: values.name ?? `${role} key`, role, scopes: scopes as Scope[], projectIds, expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString() });
      process.stderr.write(`created ${key.id} (${key.role}; scopes: ${key.scopes.join(', ')}). The key is shown once:\n`);
      process.stdout.write(`${secret}\n`);
      break;
    }
    case 'list':
      for (const k of await keys.list(values.agency)) {
        process.stdout.write(`${k.id}\t${k.prefix}…\t${k.role}\t${k.revokedAt ? `revoked ${k.revokedAt}` : isActive(k) ? (k.expiresAt ? `active until ${k.expiresAt}` : 'active') : `expired ${k.expiresAt}`}\t${k.scopes.join(',')}\t${k.projectIds.join(',')}\t${k.name}\n`);
      }
      break;
    case 'revoke':
      if (!values.id) fail('--id is required');
      if (!(await keys.revoke(values.agency, values.id))) fail(`no active key ${values.id} in agency ${values.agency}`);
      process.stdout.write(`revoked ${values.id}\n`);
      break;
    default:
      fail(`unknown command ${command ?? '(none)'}`);
  }
  await store.close();
}

void main();
