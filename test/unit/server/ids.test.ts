import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/ids.js';

describe('newId', () => {
  it('is the prefix and 80 random bits in base64url, unique across refills of its byte buffer', () => {
    // 2,000 ids span several 4 KB refills of the buffer they draw from.
    const ids = Array.from({ length: 2000 }, () => newId('exe'));
    for (const id of ids) expect(id).toMatch(/^exe_[A-Za-z0-9_-]{14}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // The bytes are not all the same one value (a buffer left unfilled would give AAAA...).
    expect(new Set(ids.map((id) => id.slice(4, 6))).size).toBeGreaterThan(100);
  });
});
