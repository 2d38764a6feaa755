/**
 * Claim items: one item per value that must be unique across users, written
 * and removed in the same transaction as the user that holds it. A claim
 * put is conditional on the value being free, so two racing writers cannot
 * both take it.
 *
 * | claim              | pk                        | sk          |
 * |--------------------|---------------------------|-------------|
 * | e-mail             | EMAIL#<case-folded>       | EMAIL       |
 * | user name          | USERNAME#<case-folded>    | USERNAME    |
 * | user external id   | USEREXT#<as given>        | USEREXT     |
 * | group external id  | GROUPEXT#<as given>       | GROUPEXT    |
 *
 * E-mail addresses and user names compare case-insensitively (the API's
 * rule; SCIM's `userName` is caseExact false); an identity provider's ids are exact.
 * A group's claim holds its id in `user_id` too: the holder, whatever it is.
 */
import { Condition } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem } from '../db/items';
import type { Key } from '../db/table';
import { put, remove, type Explain, type Write } from '../db/transact';
import { foldCase } from '../text';

export type ClaimKind = 'email' | 'user_name' | 'external_id' | 'group_external_id';

const KIND_PREFIX: Record<ClaimKind, string> = {
  email: 'EMAIL',
  user_name: 'USERNAME',
  external_id: 'USEREXT',
  group_external_id: 'GROUPEXT',
};
const CASE_INSENSITIVE: Record<ClaimKind, boolean> = { email: true, user_name: true, external_id: false, group_external_id: false };

/** The form of `value` that two equal values share. */
export const claimValue = (kind: ClaimKind, value: string) => (CASE_INSENSITIVE[kind] ? foldCase(value) : value);

/** The claims of every kind: their `type` is the claim's kind. */
const claimKinds = {
  email: claimItemKind('email'),
  user_name: claimItemKind('user_name'),
  external_id: claimItemKind('external_id'),
  group_external_id: claimItemKind('group_external_id'),
};

function claimItemKind<K extends ClaimKind>(kind: K) {
  return attr.itemKind({
    type: kind,
    key: (value: string): Key => ({ pk: `${KIND_PREFIX[kind]}#${claimValue(kind, value)}`, sk: KIND_PREFIX[kind] }),
    attributes: { user_id: attr.string },
    indexAttributes: {},
  });
}

export const claimKey = (kind: ClaimKind, value: string): Key => claimKinds[kind].key(value);

export const claimItem = (kind: ClaimKind, value: string, userId: string) =>
  claimKinds[kind].item(claimKey(kind, value), { user_id: userId });

/** Takes `value` for the user; `explain` answers a value already taken. */
export const claimFor = (kind: ClaimKind, value: string, userId: string, explain: Explain): Write =>
  put(claimItem(kind, value, userId), new Condition().whenAbsent(), { explain });

/** Gives `value` up; conditional on the claim being the user's (a racing change makes the caller read again). */
export const releaseFor = (kind: ClaimKind, value: string, userId: string, explain: Explain): Write =>
  remove(claimKey(kind, value), new Condition().whenEquals('user_id', userId), { explain });

/** The id of the user (or group) holding `value`, if any; eventually consistent reads cost half. */
export async function claimHolder(kind: ClaimKind, value: string, consistent = true): Promise<string | undefined> {
  const item = await getItem(claimKey(kind, value), consistent);
  return item ? claimKinds[kind].read(item).user_id : undefined;
}
