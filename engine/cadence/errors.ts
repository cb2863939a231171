/** Why a cadence computation was refused; stable, so callers can map it to a 400 or a log. */
export type CadenceErrorCode =
  | 'INVALID_ZONE'
  | 'INVALID_CLOCK'
  | 'INVALID_WINDOW'
  | 'INVALID_INPUT'
  | 'NO_OPENING';

/**
 * Thrown for input the arithmetic cannot work with (an unknown time zone, "25:00", a window
 * with no days). The server should refuse such data on write (`windowProblems`,
 * `stepProblems`) so that a workflow never meets this error.
 */
export class CadenceError extends Error {
  override readonly name = 'CadenceError';
  readonly code: CadenceErrorCode;

  constructor(code: CadenceErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
