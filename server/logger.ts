import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * Structured logs. Authorization headers, keys, tokens and secrets are redacted wherever they
 * appear in a logged object; vendor adapters also scrub credentials from error messages.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream | DestinationStream): Logger {
  const secrets = ['authorization', 'secret', 'signingSecret', 'apiKey', 'token', 'authToken', 'accessToken', 'refreshToken', 'credentials', 'serverSecret', 'clientSecret'];
  const options: LoggerOptions = {
    level,
    redact: { paths: [...secrets, ...secrets.map((k) => `*.${k}`), 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
