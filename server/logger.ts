import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/**
 * Which format a log stream gets: what LOG_FORMAT says, else readable lines for a person at a
 * terminal (`npm start` by hand) and JSON for everything else (a container, a pipe, a file).
 */
export function logFormatFor(stream: { isTTY?: boolean }, configured?: LogFormat): LogFormat {
  return configured ?? (stream.isTTY ? 'pretty' : 'json');
}

/**
 * Structured logs. Authorization headers, keys, tokens and secrets are redacted wherever they
 * appear in a logged object; vendor adapters also scrub credentials from error messages.
 */
export function createLogger(level: string, destination?: (NodeJS.WritableStream | DestinationStream) & { isTTY?: boolean }, format?: LogFormat): Logger {
  const secrets = ['authorization', 'secret', 'signingSecret', 'apiKey', 'token', 'authToken', 'accessToken', 'refreshToken', 'credentials', 'serverSecret', 'clientSecret'];
  const options: LoggerOptions = {
    level,
    redact: { paths: [...secrets, ...secrets.map((k) => `*.${k}`), 'headers.authorization', 'req.headers.authorization'], censor: '[redacted]' },
  };
  const out = destination ?? process.stdout;
  if (logFormatFor(out, format) === 'pretty') {
    // Synchronous, in-process (no worker thread): lines appear in order with the rest of stdout.
    return pino(options, pretty({ destination: out, sync: true, colorize: out.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true }));
  }
  // stdout without blocking the event loop: a request's log line is queued, and lines written
  // while a write is in flight go out together (a synchronous write per request cost the API
  // hot path a system call each, bench/README.md). `flushLogs` drains it before exit.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

/** Waits until every queued log line is written (before `process.exit`). */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
