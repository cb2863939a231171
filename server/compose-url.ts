import type { Config } from './config.js';

/** Where the API answers on this machine (the sandbox voice platform reports there). */
export function apiUrlOf(config: Config): string {
  return `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
}
