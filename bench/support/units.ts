/**
 * DynamoDB item sizes and capacity units, as the DynamoDB developer guide
 * defines them, for working out each operation's minimum:
 *
 * - item size: attribute names plus values (strings in UTF-8 bytes, numbers
 *   about one byte per two significant digits plus one, booleans and null one
 *   byte, lists and maps 3 bytes plus one per element plus their contents);
 * - reads: 4 KB units, a strongly consistent read 1 RCU a unit, an eventually
 *   consistent one 0.5; GetItem and each BatchGetItem item round up on their
 *   own, a Query rounds up the sum of what it read (at least one unit);
 * - writes: 1 KB units; a standard write 1 WCU a unit, a transactional write
 *   2; each index entry written 1 WCU a unit, 2 when the index key changes
 *   (the old entry is deleted and the new one put).
 *
 * Index writes are counted once, also inside a transaction (the developer
 * guide doubles the table write of a transactional item; DynamoDB Local also
 * doubles its index writes — see bench/README.md).
 */

export type Item = Record<string, unknown>;

function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'number') {
    const digits = String(Math.abs(value)).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (Array.isArray(value)) return 3 + value.reduce<number>((sum, element) => sum + 1 + valueSize(element), 0);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((sum, element) => sum + valueSize(element), 0);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Item).filter(([, v]) => v !== undefined);
    return 3 + entries.reduce((sum, [name, v]) => sum + 1 + Buffer.byteLength(name, 'utf8') + valueSize(v), 0);
  }
  return 0;
}

/** Bytes of an item as DynamoDB counts them. */
export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item)
    .filter(([, v]) => v !== undefined)
    .reduce((sum, [name, v]) => sum + Buffer.byteLength(name, 'utf8') + valueSize(v), 0);
}

export const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 4096));
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** One Query request that read these items (an index Query is always eventually consistent). */
export const query = (items: Array<Item | number>, consistent: boolean) => ({
  rcu:
    readUnits(items.reduce<number>((total, item) => total + (typeof item === 'number' ? item : itemSize(item)), 0)) *
    (consistent ? 1 : 0.5),
  wcu: 0,
});
