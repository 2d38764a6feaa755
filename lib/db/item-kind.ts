/**
 * Item kinds. Each kind of item is defined once, in its store module
 * (lib/store/): its key, its `type`, its attributes with their types, and the
 * attributes of the index partitions it is in. The item's TypeScript type,
 * its builder and its checked reading follow from that one definition, so a
 * store module maps a domain object to its item and back without casts.
 *
 * Written here rather than taken from ElectroDB or dynamodb-toolbox, whose
 * entities do the same and more: either adds 125 to 225 KB (minified) to
 * every function's bundle, this 1.2 KB, and the definitions a function uses
 * 0.5 to 3 KB more.
 *
 *   const reportKind = itemKind({
 *     type: 'report',
 *     key: (id: string) => ({ pk: `REPORT#${id}`, sk: 'REPORT' }),
 *     attributes: { id: attr.string, completed_at: attr.nullable(attr.string), attempts: attr.orElse(attr.number, 0) },
 *     indexAttributes: { gsi1pk: attr.optional(attr.string) },
 *   });
 *   type ReportItem = ItemOf<typeof reportKind>;
 */
import type { Item, Key } from './table';

/** The type of one attribute, checked when an item is read back. */
export interface AttributeType<T, Optional extends boolean = boolean> {
  /** What the attribute holds, for the error that reports a stored item not of its kind. */
  readonly expected: string;
  readonly holds: (value: unknown) => value is T;
  /** What the attribute reads as when the item lacks it. */
  readonly absent?: { readonly value: T };
  /** The item may lack it, and so may what is read of the item. */
  readonly optional: Optional;
}

/** An attribute that holds what `holds` accepts: `expected` says what that is. */
export const required = <T>(expected: string, holds: (value: unknown) => value is T): AttributeType<T, false> => ({
  expected,
  holds,
  optional: false,
});

export const string = required('a string', (value): value is string => typeof value === 'string');
export const number = required('a number', (value): value is number => typeof value === 'number');
export const boolean = required('a boolean', (value): value is boolean => typeof value === 'boolean');
export const stringList = required(
  'a list of strings',
  (value): value is string[] => Array.isArray(value) && value.every((element) => typeof element === 'string'),
);
export const map = required(
  'a map',
  (value): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value),
);

/** One of `values`. */
export const oneOf = <const V extends string>(values: readonly V[]) =>
  required(values.join(' | '), (value): value is V => values.some((allowed) => allowed === value));

/** Holds null, or `type`; an item that lacks it (a null left out, say) reads as null. */
export const nullable = <T>(type: AttributeType<T, false>): AttributeType<T | null, false> => ({
  expected: `${type.expected} or null`,
  holds: (value): value is T | null => value === null || type.holds(value),
  absent: { value: null },
  optional: false,
});

/** The item may lack it: so may what is read of the item. */
export const optional = <T>(type: AttributeType<T, false>): AttributeType<T, true> => ({ ...type, optional: true });

/** An item that lacks it reads as `value` (a counter that no ADD has made yet, say). */
export const orElse = <T>(type: AttributeType<T, false>, value: T): AttributeType<T, false> => ({ ...type, absent: { value } });

/** Attributes by name. */
export type Shape = Record<string, AttributeType<unknown>>;

type ValueOf<A> = A extends AttributeType<infer T> ? T : never;
type AttributeValue<A> = A extends AttributeType<infer T, true> ? T | undefined : ValueOf<A>;
type OptionalNames<S extends Shape> = { [N in keyof S]: S[N] extends AttributeType<unknown, true> ? N : never }[keyof S];

/** What the attributes of `S` hold (the optional ones may be absent). */
export type Attributes<S extends Shape> = {
  [N in Exclude<keyof S, OptionalNames<S>>]: ValueOf<S[N]>;
} & { [N in OptionalNames<S>]?: ValueOf<S[N]> };

/** A stored item that is not what its kind says it is: a bug, or an item no version of this code wrote. */
export class ItemKindError extends Error {
  override readonly name = 'ItemKindError';
}

/** One attribute of an item of no defined kind (a counter item, written by ADD alone), checked. */
export function readAttribute<T>(item: Item, name: string, type: AttributeType<T, false>): T {
  const value = checked(type, item, name, 'an');
  if (value === undefined) throw new ItemKindError(`an item ${item.pk} ${item.sk} lacks ${name}`);
  return value;
}

function checked<T>(type: AttributeType<T>, item: Item, name: string, kind: string): T | undefined {
  const value = item[name];
  if (value === undefined && (type.absent || type.optional)) return type.absent?.value;
  if (type.holds(value)) return value;
  throw new ItemKindError(`${kind} item ${item.pk} ${item.sk}: ${name} is not ${type.expected}`);
}

/** The attributes of `shape` of a stored item, checked (`kind` names it in the error). */
export function readAttributes<S extends Shape>(item: Item, shape: S, kind: string): Attributes<S> {
  const read: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(shape)) {
    const value = checked(type, item, name, kind);
    if (value !== undefined) read[name] = value;
  }
  return read as Attributes<S>;
}

/** The primary key of a stored item. */
export function keyOf(item: Item): Key {
  const { pk, sk } = item;
  if (typeof pk !== 'string' || typeof sk !== 'string') throw new ItemKindError(`an item without a key: ${pk} ${sk}`);
  return { pk, sk };
}

/** One kind of item: see the top of this file. */
export class ItemKind<T extends string, K extends unknown[], S extends Shape, I extends Shape> {
  constructor(
    /** The item's `type` attribute. */
    readonly type: T,
    /** The item's primary key. */
    readonly key: (...args: K) => Key,
    /** What `read` answers. */
    readonly attributes: S,
    /** The attributes of the index partitions it is in (lib/db/table.ts), derived from the others when it is written. */
    readonly indexAttributes: I,
  ) {}

  /** The whole item. */
  item(key: Key, fields: Attributes<S> & Attributes<I>): ItemOfKind<T, S, I> {
    return { ...key, type: this.type, ...fields };
  }

  /** Whether a raw item (of a whole-table read, say) is of this kind. */
  is(item: Item | undefined): item is Item {
    return item?.type === this.type;
  }

  /** The attributes of a stored item of this kind, checked: an ItemKindError when it is not of this kind. */
  read(item: Item): Attributes<S> {
    return readAttributes(item, this.attributes, this.type);
  }

  /** One attribute (or index attribute) of a stored item, checked: of an item read only in part, say. */
  attribute<N extends keyof S | keyof I>(item: Item, name: N & string): AttributeValue<(S & I)[N]> {
    const type = this.attributes[name] ?? this.indexAttributes[name];
    return checked(type, item, name, this.type) as AttributeValue<(S & I)[N]>;
  }
}

/** Still an Item: code that walks raw items (the invariant checks, say) indexes it by any name. */
type ItemOfKind<T extends string, S extends Shape, I extends Shape> = Item & Key & { type: T } & Attributes<S> & Attributes<I>;

/** The whole item of a kind, as written. */
export type ItemOf<Kind> = Kind extends ItemKind<infer T, infer _K, infer S, infer I> ? ItemOfKind<T, S, I> : never;

/** Defines a kind of item. */
export function itemKind<const T extends string, K extends unknown[], S extends Shape, I extends Shape>(definition: {
  type: T;
  key: (...args: K) => Key;
  attributes: S;
  /** `{}` for an item in no index. */
  indexAttributes: I;
}): ItemKind<T, K, S, I> {
  return new ItemKind(definition.type, definition.key, definition.attributes, definition.indexAttributes);
}
