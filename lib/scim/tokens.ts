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
import { log } from '../log';
import { notFound } from '../problems';
import { scimTokenExpired } from './token-expiry';
import { findScimToken, listScimTokens, scimTokenDelete, scimTokenPut, touchScimToken, type StoredScimToken } from '../store/scim-tokens';

/** A token is recorded as used at most once a minute. */
const TOUCH_INTERVAL_MS = 60_000;
const TOKEN_PATTERN = /^scim_([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

export type ScimTokenView = Omit<StoredScimToken, 'secret_hash'>;

const hashOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();
const view = ({ secret_hash: _hash, ...token }: StoredScimToken): ScimTokenView => token;

/** A live token, as the authorizer hands it on. */
export interface LiveScimToken {
  id: string;
  expires_at: string | null;
}

/** Makes a token; the answer carries its secret, this once. */
export async function createScimToken(
  ctx: ChangeContext,
  { description, expires_at = null }: { description: string; expires_at?: string | null },
): Promise<ScimTokenView & { token: string; last_used_at: null }> {
  const id = newId();
  const secret = randomBytes(32).toString('base64url');
  const now = new Date().toISOString();
  await transactWrite([
    scimTokenPut({ id, description, secret_hash: hashOf(secret).toString('hex'), created_at: now, expires_at }),
    recordChange(ctx, { resourceType: 'scim-token', resourceId: id, changes: { created: { id, description, expires_at } } }),
  ]);
  return { id, description, token: `scim_${id}.${secret}`, created_at: now, expires_at, last_used_at: null };
}

export async function scimTokens(): Promise<ScimTokenView[]> {
  return (await listScimTokens()).map(view);
}

export async function revokeScimToken(ctx: ChangeContext, id: string): Promise<void> {
  const now = new Date().toISOString();
  await transactWrite([
    scimTokenDelete(id, () => notFound('SCIM token', id)),
    recordChange(ctx, { resourceType: 'scim-token', resourceId: id, changes: { deleted: true } }),
  ]);
}

/**
 * The token an `Authorization` header carries, if it is a live one (known,
 * the right secret, not expired); undefined otherwise (what was wrong is not
 * told).
 */
export async function verifyScimToken(authorization: string | undefined, now = Date.now()): Promise<LiveScimToken | undefined> {
  const bearer = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  const parts = bearer && TOKEN_PATTERN.exec(bearer[1]);
  if (!parts) return undefined;
  const [, id, secret] = parts;
  const stored = await findScimToken(id);
  if (!stored) return undefined;
  const expected = Buffer.from(stored.secret_hash, 'hex');
  const presented = hashOf(secret);
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
  if (scimTokenExpired(stored.expires_at, now)) return undefined;
  if (!stored.last_used_at || Date.parse(stored.last_used_at) < now - TOUCH_INTERVAL_MS) await recordUse(id, now);
  return { id, expires_at: stored.expires_at };
}

/** The last use is for the administrator's eyes: failing to record it must not fail the identity provider's request. */
async function recordUse(id: string, now: number): Promise<void> {
  try {
    await touchScimToken(id, new Date(now).toISOString(), new Date(now - TOUCH_INTERVAL_MS).toISOString());
  } catch (error) {
    await log('warn', 'SCIM token: its last use was not recorded', { scim_token_id: id, error });
  }
}
