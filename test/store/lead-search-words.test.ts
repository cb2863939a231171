import { describe, expect, it } from 'vitest';
import { leadSearchPhrase, leadSearchWords } from '../../server/store/sqlite/lead-search.js';

/**
 * A document's words are stored: the words a search asks for must be spelled exactly as every
 * document already written spells them, whatever code computes them. Pinned here from the
 * encoding migration 010 wrote (a-y and digits as themselves; `z` and every other code point as
 * `z` and four base-36 digits, astral ones as one code point).
 */
describe('lead search words', () => {
  it('spell a text, its campaign and its project as the stored documents do', () => {
    expect(leadSearchWords(7, 'scheduled', 2, 'zoë +1 😀x', { campaignId: 'Cmp', projectId: 'p1' })).toBe(
      '7p2xz003eoz006j 7p2xoz006jz000w 7p2xz006jz000wz0017 7p2xz000wz00171 7p2xz00171z000w 7p2x1z000wz2r5s 7p2xz000wz2r5sx 7p2kz001vmp 7p2jp1',
    );
    // Too short for a trigram, or in no list: no document.
    expect(leadSearchWords(7, 'waiting_for_window', 0, 'ab')).toBeNull();
    expect(leadSearchWords(7, 'completed', 0, 'garcia')).toBeNull();
  });

  it('spell a search as the phrase of the same words', () => {
    const doc = leadSearchWords(3, 'waiting_for_window', 0, 'dana garcía')!.split(' ');
    expect(leadSearchPhrase(3, 'w', 0, 'garcía')).toBe(`"${doc.slice(5).join(' ')}"`);
  });
});
