import { DomainError, type DomainErrorCode } from '../domain/errors.js';

/**
 * One error type for everything the API refuses: the domain's refusals (DomainError) and the
 * HTTP layer's own (a missing key, a method a path lacks, a body too large). The code decides the
 * status through an exhaustive table, so a new code cannot silently become a 400 or a 500.
 */
export type ErrorCode =
  | DomainErrorCode
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL';

export const statusOf: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** The `error` string of spec section 7 for each code. */
export const errorNameOf: Record<ErrorCode, string> = {
  VALIDATION: 'VALIDATION',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'NotFound',
  METHOD_NOT_ALLOWED: 'MethodNotAllowed',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PayloadTooLarge',
  UNSUPPORTED_MEDIA_TYPE: 'UnsupportedMediaType',
  TOO_MANY_REQUESTS: 'TooManyRequests',
  INTERNAL: 'InternalError',
  UNAVAILABLE: 'ServiceUnavailable',
};

export class AppError extends Error {
  readonly code: ErrorCode;
  /** the optional machine code of spec 7, e.g. SubAccountCapReached */
  readonly detailCode: string | undefined;
  readonly headers: Record<string, string>;
  readonly expose: boolean;

  /** A 409 always says which conflict it is (spec 7 `code`), so clients can tell the causes apart. */
  constructor(code: 'CONFLICT', message: string, opts: { detailCode: string; headers?: Record<string, string> });
  constructor(code: Exclude<ErrorCode, 'CONFLICT'>, message: string, opts?: { detailCode?: string; headers?: Record<string, string> });
  constructor(code: ErrorCode, message: string, opts: { detailCode?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.detailCode = opts.detailCode;
    this.headers = opts.headers ?? {};
    this.expose = code !== 'INTERNAL';
  }

  get status(): number {
    return statusOf[this.code];
  }
}

/** A domain refusal as the API answers it: its status from the table, `Retry-After` when it says when. */
export function fromDomain(err: DomainError): AppError {
  const headers: Record<string, string> = err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) };
  const code = err.code;
  if (code === 'CONFLICT') return new AppError('CONFLICT', err.message, { detailCode: err.detailCode ?? 'Conflict', headers });
  return new AppError(code, err.message, { ...(err.detailCode && { detailCode: err.detailCode }), headers });
}

export { DomainError };

export const validation = (message: string) => new AppError('VALIDATION', message);
export const notFound = (message: string, detailCode?: string) => new AppError('NOT_FOUND', message, detailCode ? { detailCode } : {});
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const conflict = (message: string, detailCode: string) => new AppError('CONFLICT', message, { detailCode });
