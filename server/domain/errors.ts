/**
 * What the domain refuses, and why, in its own words: no status codes or headers here. The HTTP
 * layer maps each code to a status in one exhaustive table (server/http/errors.ts), so a new code
 * cannot silently become a 400 or a 500.
 */
/** UNAUTHORIZED: a delivery or request is not authentic (a bad signature, a replay, no credential). */
export type DomainErrorCode = 'VALIDATION' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'UNAVAILABLE';

export interface DomainErrorOptions {
  /** the machine code of spec 7 (`SubAccountCapReached`); every conflict names one */
  detailCode?: string;
  /** UNAVAILABLE: when trying again makes sense */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly detailCode: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  /** A conflict always says which one it is, so clients can tell the causes apart. */
  constructor(code: 'CONFLICT', message: string, opts: DomainErrorOptions & { detailCode: string });
  constructor(code: Exclude<DomainErrorCode, 'CONFLICT'>, message: string, opts?: DomainErrorOptions);
  constructor(code: DomainErrorCode, message: string, opts: DomainErrorOptions = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.detailCode = opts.detailCode;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

export const unauthentic = (message: string) => new DomainError('UNAUTHORIZED', message);
export const invalid = (message: string) => new DomainError('VALIDATION', message);
export const notFound = (message: string, detailCode?: string) => new DomainError('NOT_FOUND', message, detailCode ? { detailCode } : {});
export const forbidden = (message: string) => new DomainError('FORBIDDEN', message);
export const conflict = (message: string, detailCode: string) => new DomainError('CONFLICT', message, { detailCode });
export const unavailable = (message: string, retryAfterSeconds?: number) => new DomainError('UNAVAILABLE', message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
