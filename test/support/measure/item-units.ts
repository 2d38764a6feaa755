/**
 * DynamoDB item sizes and capacity units, by the developer guide: an item is its attribute names plus values (strings
 * in UTF-8 bytes, numbers about a byte per two digits plus one, lists and maps 3 bytes plus one per element plus their
 * contents); reads in 4 KB units (1 RCU consistent, 0.5 eventually; a Query rounds up its sum), writes in 1 KB units.
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

/** The units a DynamoDB answer says it consumed (`ReturnConsumedCapacity: TOTAL`). */
export function consumedUnits(output: unknown): number {
  const consumed = (output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
  return [consumed ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
}

/** One Query request that read these items (an index Query is always eventually consistent). */
export const query = (items: Array<Item | number>, consistent: boolean) => ({
  rcu:
    readUnits(items.reduce<number>((total, item) => total + (typeof item === 'number' ? item : itemSize(item)), 0)) *
    (consistent ? 1 : 0.5),
  wcu: 0,
});
