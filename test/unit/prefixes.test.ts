/** Name prefixes (lib/lists/prefixes.ts): the bound past which a prefix can match no stored name. */
import { describe, expect, it } from 'vitest';
import { MAX_PREFIX_BYTES, matchablePrefixes, outermostPrefixes, prefixBounds } from '../../lib/lists/prefixes';
import { MAX_SORT_KEY_BYTES } from '../../lib/db/query';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('matchablePrefixes', () => {
  it('keeps a prefix whose key range fits a sort key, and drops one a byte longer', () => {
    const longest = 'a'.repeat(MAX_PREFIX_BYTES);
    expect(bytes(prefixBounds(longest).to)).toBe(MAX_SORT_KEY_BYTES);
    expect(matchablePrefixes([longest, `${longest}b`, 'smi'])).toEqual([longest, 'smi']);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const threeByteCharacters = (n: number) => '一'.repeat(n);
    expect(matchablePrefixes([threeByteCharacters(340), threeByteCharacters(341)])).toEqual([threeByteCharacters(340)]);
  });
});

describe('outermostPrefixes', () => {
  it('drops a prefix another given prefix contains', () => {
    expect(outermostPrefixes(['smi', 'sm', 'ad', 'adams'])).toEqual(['sm', 'ad']);
  });
});
