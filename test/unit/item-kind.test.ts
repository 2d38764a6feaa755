import { describe, expect, it } from 'vitest';
import * as attr from '../../lib/db/item-kind';

const thingKind = attr.itemKind({
  type: 'thing',
  key: (id: string) => ({ pk: `THING#${id}`, sk: 'THING' }),
  attributes: {
    id: attr.string,
    state: attr.oneOf(['open', 'closed']),
    note: attr.nullable(attr.string),
    count: attr.orElse(attr.number, 0),
    lock: attr.optional(attr.string),
    tags: attr.stringList,
  },
  indexAttributes: { gsi1pk: attr.string },
});

describe('item kinds', () => {
  it('builds the whole item: key, type, attributes and index attributes', () => {
    const item = thingKind.item(thingKind.key('t1'), { id: 't1', state: 'open', note: null, count: 2, tags: ['a'], gsi1pk: 'THINGS' });
    expect(item).toEqual({
      pk: 'THING#t1',
      sk: 'THING',
      type: 'thing',
      id: 't1',
      state: 'open',
      note: null,
      count: 2,
      tags: ['a'],
      gsi1pk: 'THINGS',
    });
    expect(thingKind.is(item)).toBe(true);
    expect(thingKind.is({ ...item, type: 'other' })).toBe(false);
  });

  it('reads the attributes back, an absent nullable one as null, an absent defaulted one as its default, an absent optional one not at all', () => {
    const read = thingKind.read({ pk: 'THING#t1', sk: 'THING', type: 'thing', id: 't1', state: 'closed', tags: [], gsi1pk: 'THINGS' });
    expect(read).toEqual({ id: 't1', state: 'closed', note: null, count: 0, tags: [] });
    expect('lock' in read).toBe(false);
    expect(thingKind.read({ id: 't1', state: 'open', note: 'n', count: 1, lock: 'op', tags: ['x'] }).lock).toBe('op');
  });

  it('refuses an item whose attribute is not of its type', () => {
    const good = { pk: 'THING#t1', sk: 'THING', id: 't1', state: 'open', tags: [] };
    expect(() => thingKind.read({ ...good, state: 'ajar' })).toThrow(attr.ItemKindError);
    expect(() => thingKind.read({ ...good, count: '3' })).toThrow('THING#t1 THING: count is not a number');
    expect(() => thingKind.read({ ...good, tags: [1] })).toThrow(attr.ItemKindError);
    expect(() => thingKind.read({ ...good, id: undefined })).toThrow(attr.ItemKindError);
  });

  it('reads one attribute or index attribute of an item read in part, and the key of any item', () => {
    expect(thingKind.attribute({ gsi1pk: 'THINGS' }, 'gsi1pk')).toBe('THINGS');
    expect(thingKind.attribute({}, 'lock')).toBeUndefined();
    expect(attr.keyOf({ pk: 'P', sk: 'S', n: 1 })).toEqual({ pk: 'P', sk: 'S' });
    expect(attr.readAttribute({ pk: 'P', sk: 'S' }, 'n', attr.orElse(attr.number, 0))).toBe(0);
    expect(() => attr.readAttribute({ pk: 'P', sk: 'S' }, 'n', attr.number)).toThrow(attr.ItemKindError);
  });
});
