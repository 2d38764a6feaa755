import { randomBytes } from 'node:crypto';

/** A server-made id: 16 URL-safe characters (96 random bits), valid under the id pattern. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** FNV-1a: a cheap, stable spread of keys over `shards` (the same key is always in the same shard). */
export function shardOfKey(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}
