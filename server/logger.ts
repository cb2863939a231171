import pino, { type Logger } from 'pino';

/** Structured logs. Authorization headers, keys and secrets are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['authorization', 'headers.authorization', '*.authorization', 'secret', '*.secret', 'signingSecret', '*.signingSecret', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
