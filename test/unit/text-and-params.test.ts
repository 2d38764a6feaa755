import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Problem } from '../../lib/problems';
import { expectedVersion, etagOf } from '../../lib/http/etag';
import { parseSort } from '../../lib/http/list-params';
import { parseFilter } from '../../lib/lists/filter';
import { compareCodePoints, nameSortKey, NO_CONTROL_CHARACTERS } from '../../lib/text';

describe('compareCodePoints', () => {
  it('orders like UTF-8 bytes (DynamoDB), not like UTF-16 code units', () => {
    const astral = '\u{1F600}'; // surrogate pair D83D DE00
    const highBmp = '\uFF21'; // FULLWIDTH A
    expect(compareCodePoints(astral, highBmp)).toBeGreaterThan(0);
    expect(Buffer.compare(Buffer.from(astral), Buffer.from(highBmp))).toBeGreaterThan(0);
  });

  it('agrees with byte order for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
    );
  });
});

describe('NO_CONTROL_CHARACTERS', () => {
  it('refuses control characters and unpaired surrogates, in JavaScript and in code point (JSON Schema) matching', () => {
    const codePoints = new RegExp(NO_CONTROL_CHARACTERS.source, 'u');
    for (const pattern of [NO_CONTROL_CHARACTERS, codePoints]) {
      for (const ok of ['Lovelace', 'Grüß 東京', '\u{1F600} and \u{1F600}', '"quoted" \\ back', ''])
        expect(pattern.test(ok), ok).toBe(true);
      for (const bad of ['tab\there', 'bell\u0007', 'del\u007f', 'lone \ud800', '\udfff first', 'swapped \ude00\ud83d']) {
        expect(pattern.test(bad), JSON.stringify(bad)).toBe(false);
      }
    }
  });
});

describe('nameSortKey', () => {
  it('sorts a name before its extensions and ties by id', () => {
    const keys = [nameSortKey('Smith Jr', 'a'), nameSortKey('smith', 'b'), nameSortKey('SMITH', 'a'), nameSortKey('Smithson', 'a')];
    expect([...keys].sort(compareCodePoints)).toEqual([keys[2], keys[1], keys[0], keys[3]]);
  });
});

describe('parseSort', () => {
  const fields = ['name', 'created_at'] as const;
  it.each([
    [undefined, { field: 'name', direction: 'asc' }],
    ['desc', { field: 'name', direction: 'desc' }],
    ['created_at', { field: 'created_at', direction: 'asc' }],
    ['created_at:desc', { field: 'created_at', direction: 'desc' }],
  ])('reads %s', (raw, expected) => expect(parseSort(raw, fields, 'name')).toEqual(expected));

  it.each(['size', 'name:up', 'name:asc:x', ':asc'])('refuses %s with a validation error on sort', (raw) => {
    expect(() => parseSort(raw, fields, 'name')).toThrow(Problem);
    try {
      parseSort(raw, fields, 'name');
    } catch (error) {
      expect((error as Problem).extra.errors).toEqual([{ field: 'sort', message: expect.any(String) }]);
    }
  });
});

describe('parseFilter', () => {
  it('groups repeated attributes (OR) and keeps different ones apart (AND)', () => {
    const filters = parseFilter('role:admin,name:a:b,role:guest', ['role', 'name'] as const);
    expect(filters.get('role')).toEqual(['admin', 'guest']);
    expect(filters.get('name')).toEqual(['a:b']);
  });

  it.each(['role', 'colour:red', 'role:admin,bad'])('refuses %s', (raw) => {
    expect(() => parseFilter(raw, ['role'] as const)).toThrow(Problem);
  });
});

describe('ETags', () => {
  it('round-trips a version and never matches a foreign tag', () => {
    expect(expectedVersion(etagOf(7))).toBe(7);
    expect(expectedVersion('W/"7"')).toBe(7);
    expect(expectedVersion(undefined)).toBeUndefined();
    expect(expectedVersion('*')).toBeUndefined();
    expect(expectedVersion('"abc"')).toBe(-1);
  });
});
