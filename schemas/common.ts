/** Shapes shared by every area: ids, dates, the error envelope of spec section 7. */
export const Id = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const DateTime = { type: 'string', format: 'date-time' } as const;
export const E164 = { type: 'string', pattern: '^\\+[0-9]{10,15}$' } as const;

export const ErrorBody = {
  type: 'object',
  required: ['success'],
  properties: {
    success: { const: false },
    error: { type: 'string' },
    code: { type: 'string' },
    message: { type: 'string' },
  },
} as const;

/** `{ success: true, data: <schema> }`, the envelope of most endpoints. */
export function ok<const S extends object>(data: S) {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: { success: { const: true }, data },
  } as const;
}

export const IdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: Id },
} as const;

/** A credential travels in an HTTP header: visible ASCII only, no spaces (anything else could never authenticate). */
export const VISIBLE_ASCII = '^[!-~]+$';
