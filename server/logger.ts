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
  return pino(options, destination ?? logDestination(1));
}

/** How long a log line may wait in the buffer before it is written. */
const LOG_FLUSH_MS = 200;

/**
 * JSON lines to a file descriptor or path without blocking the event loop: lines are buffered and
 * written 4 KiB at a time, or after LOG_FLUSH_MS when fewer come (a write per line cost the API
 * hot path a system call per request, bench/README.md). `flushLogs` drains it before exit; a
 * kill -9 loses what the buffer held.
 */
export function logDestination(dest: number | string): DestinationStream {
  const stream = pino.destination({ dest, sync: false, minLength: 4096 });
  const timer = setInterval(() => stream.flush(), LOG_FLUSH_MS);
  timer.unref();
  stream.on('close', () => clearInterval(timer));
  return stream;
}

/** Waits until every queued log line is written (before `process.exit`). */
export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
