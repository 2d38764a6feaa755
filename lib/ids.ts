import { randomBytes } from 'node:crypto';

/** A server-made id: 16 URL-safe characters (96 random bits), valid under the id pattern. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}
