import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';

/** How to reach a Temporal cluster beyond its address: TLS, an API key, extra gRPC metadata. */
export type TemporalAccess = Pick<NativeConnectionOptions, 'tls' | 'apiKey' | 'metadata'>;

export interface TemporalTarget {
  /** unset: no cluster named, the embedded dev server runs */
  address: string | undefined;
  namespace: string;
  access: TemporalAccess;
}

const PAIRS = [
  ['TEMPORAL_TLS_CLIENT_CERT', 'TEMPORAL_TLS_CLIENT_KEY'],
  ['TEMPORAL_TLS_CLIENT_KEY', 'TEMPORAL_TLS_CLIENT_CERT'],
] as const;

const given = (env: NodeJS.ProcessEnv, name: string) => !!(env[`${name}_PATH`] || env[`${name}_DATA`]);

/**
 * The cluster this process talks to, read the way Temporal's own CLI and SDKs read it
 * (`@temporalio/envconfig`: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS,
 * TEMPORAL_TLS_CLIENT_CERT_PATH / _KEY_PATH, TEMPORAL_TLS_SERVER_CA_CERT_PATH,
 * TEMPORAL_TLS_SERVER_NAME, TEMPORAL_GRPC_META_*; a TOML profile only when TEMPORAL_CONFIG_FILE
 * names one, so a developer's own CLI profile never redirects `npm start`). What that library
 * would take silently (a certificate without its key, TEMPORAL_TLS=yes, an unreadable file) stops
 * the process with the setting named instead.
 */
export function temporalTargetFromEnv(env: NodeJS.ProcessEnv): TemporalTarget {
  for (const [one, other] of PAIRS) {
    if (given(env, one) && !given(env, other)) throw new Error(`${one}_PATH is set without ${other}_PATH: a client certificate needs its private key (and the key its certificate)`);
  }
  if (env.TEMPORAL_TLS !== undefined && env.TEMPORAL_TLS !== '' && !['true', 'false'].includes(env.TEMPORAL_TLS)) {
    throw new Error(`TEMPORAL_TLS must be "true" or "false", got "${env.TEMPORAL_TLS}"`);
  }
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  let loaded;
  try {
    loaded = loadClientConnectConfig({
      overrideEnvVars: vars,
      ...(env.TEMPORAL_CONFIG_FILE ? { configSource: { path: env.TEMPORAL_CONFIG_FILE } } : { disableFile: true }),
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { path?: string };
    const setting = e.path ? Object.keys(vars).find((k) => k.startsWith('TEMPORAL_') && vars[k] === e.path) : undefined;
    throw new Error(`Temporal connection settings: ${setting ? `${setting}: ` : ''}${e.message}`);
  }
  const { address, tls, apiKey, metadata } = loaded.connectionOptions;
  const access: TemporalAccess = {
    ...(tls !== undefined && { tls }),
    ...(apiKey !== undefined && { apiKey }),
    ...(metadata && Object.keys(metadata).length > 0 && { metadata }),
  };
  if (!address && (access.tls || access.apiKey)) {
    throw new Error('TEMPORAL_API_KEY / TEMPORAL_TLS_* are set but TEMPORAL_ADDRESS is not: they are for a Temporal cluster, and the embedded dev server takes neither');
  }
  return { address: address || undefined, namespace: loaded.namespace || 'default', access };
}
