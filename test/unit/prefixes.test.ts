/** Name prefixes (lib/lists/prefixes.ts): the bound past which a prefix can match no name. */
import { describe, expect, it } from 'vitest';
import { MAX_FOLDED_NAME_BYTES, matchablePrefixes, outermostPrefixes } from '../../lib/lists/prefixes';
import { DISPLAY_NAME_MAX_LENGTH } from '../../lib/schemas/common';
import { foldCase } from '../../lib/text';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('the longest folded name', () => {
  it('is three UTF-8 bytes per UTF-16 code unit of the name, at most: every character folds within that', () => {
    let widest = 0;
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue; // lone surrogates are no characters
      const character = String.fromCodePoint(codePoint);
      widest = Math.max(widest, bytes(foldCase(character)) / character.length);
    }
    expect(widest).toBe(3);
    expect(MAX_FOLDED_NAME_BYTES).toBe(3 * DISPLAY_NAME_MAX_LENGTH);
  });

  it('is reached by a name of 200 "İ" (each folds to "i" and a combining dot)', () => {
    expect(bytes(foldCase('İ'.repeat(DISPLAY_NAME_MAX_LENGTH)))).toBe(MAX_FOLDED_NAME_BYTES);
  });
});

describe('matchablePrefixes', () => {
  const longest = foldCase('İ'.repeat(DISPLAY_NAME_MAX_LENGTH));

  it('keeps a prefix as long as the longest folded name, and drops one a byte longer', () => {
    expect(matchablePrefixes([longest, `${longest}x`, 'smi'])).toEqual([longest, 'smi']);
  });

  it('counts bytes, not characters: 200 three-byte characters fit, 201 do not', () => {
    expect(matchablePrefixes(['一'.repeat(200), '一'.repeat(201)])).toEqual(['一'.repeat(200)]);
  });
});

describe('outermostPrefixes', () => {
  it('drops a prefix another given prefix contains', () => {
    expect(outermostPrefixes(['smi', 'sm', 'ad', 'adams'])).toEqual(['sm', 'ad']);
  });
});
