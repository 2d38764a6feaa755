/**
 * SCIM tokens (docs/identity-providers.md): long-lived secrets an administrator
 * makes for an identity provider. A token is `scim_<id>.<secret>`: the id
 * finds its item with one key read, the secret (32 random bytes) is kept
 * only as its SHA-256 and compared in constant time. Slow password hashes
 * are for guessable passwords; 256 random bits are not guessable, and the
 * authorizer runs on every SCIM request.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { recordChange, type ChangeContext } from '../audit/context';
import { transactWrite } from '../db/transact';
import { newId } from '../ids';
import { notFound } from '../problems';
import { findScimToken, listScimTokens, scimTokenDelete, scimTokenPut, touchScimToken, type StoredScimToken } from '../store/scim-tokens';

/** A token is recorded as used at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_PATTERN = /^scim_([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

export type ScimTokenView = Omit<StoredScimToken, 'secret_hash'>;

const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();
const view = ({ secret_hash: _hash, ...token }: StoredScimToken): ScimTokenView => token;

/** Makes a token; the answer carries its secret, this once. */
export async function createScimToken(
  ctx: ChangeContext,
  description: string,
): Promise<ScimTokenView & { token: string; last_used_at: null }> {
  const id = newId();
  const secret = randomBytes(32).toString('base64url');
  const now = new Date().toISOString();
  await transactWrite([
    scimTokenPut({ id, description, secret_hash: hashOf(secret).toString('hex'), created_at: now }),
    recordChange(ctx, { resourceType: 'scim-token', resourceId: id, changes: { created: { id, description } } }, now),
  ]);
  return { id, description, token: `scim_${id}.${secret}`, created_at: now, last_used_at: null };
}

export async function scimTokens(): Promise<ScimTokenView[]> {
  return (await listScimTokens()).map(view);
}

export async function revokeScimToken(ctx: ChangeContext, id: string): Promise<void> {
  const now = new Date().toISOString();
  await transactWrite([
    scimTokenDelete(id, () => notFound('SCIM token', id)),
    recordChange(ctx, { resourceType: 'scim-token', resourceId: id, changes: { deleted: true } }, now),
  ]);
}

/**
 * The id of the token an `Authorization` header carries, if it is a live
 * one; undefined otherwise (what was wrong is not told).
 */
export async function verifyScimToken(authorization: string | undefined, now = Date.now()): Promise<string | undefined> {
  const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const parts = bearer && TOKEN_PATTERN.exec(bearer[1]);
  if (!parts) return undefined;
  const [, id, secret] = parts;
  const stored = await findScimToken(id);
  if (!stored) return undefined;
  const expected = Buffer.from(stored.secret_hash, 'hex');
  const presented = hashOf(secret);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
  if (!stored.last_used_at || Date.parse(stored.last_used_at) < now - TOUCH_INTERVAL_MS) {
    await touchScimToken(id, new Date(now).toISOString(), new Date(now - TOUCH_INTERVAL_MS).toISOString());
  }
  return id;
}
