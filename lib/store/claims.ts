/**
 * Claim items: one item per value that must be unique across users, written
 * and removed in the same transaction as the user that holds it. A claim
 * put is conditional on the value being free, so two racing writers cannot
 * both take it.
 *
 * | claim   | pk                  | sk    |
 * |---------|---------------------|-------|
 * | e-mail  | EMAIL#<lower-cased> | EMAIL |
 */
import { Condition } from '../db/expression';
import { getItem } from '../db/items';
import type { Item, Key } from '../db/table';
import { put, remove, type Explain, type Write } from '../db/transact';
import { foldCase } from '../text';

export type ClaimKind = 'email';

const KIND_PREFIX: Record<ClaimKind, string> = { email: 'EMAIL' };

export const claimKey = (kind: ClaimKind, value: string): Key => ({ pk: `${KIND_PREFIX[kind]}#${foldCase(value)}`, sk: KIND_PREFIX[kind] });

export const claimItem = (kind: ClaimKind, value: string, userId: string): Item => ({
  ...claimKey(kind, value),
  type: kind,
  user_id: userId,
});

/** Takes `value` for the user; `explain` answers a value already taken. */
export const claimFor = (kind: ClaimKind, value: string, userId: string, explain: Explain): Write =>
  put(claimItem(kind, value, userId), new Condition().whenAbsent(), { explain });

/** Gives `value` up; conditional on the claim being the user's (a racing change makes the caller read again). */
export const releaseFor = (kind: ClaimKind, value: string, userId: string, explain: Explain): Write =>
  remove(claimKey(kind, value), new Condition().whenEquals('user_id', userId), { explain });

/** The id of the user holding `value`, if any. */
export async function claimHolder(kind: ClaimKind, value: string): Promise<string | undefined> {
  const item = await getItem(claimKey(kind, value));
  return item ? String(item.user_id) : undefined;
}
