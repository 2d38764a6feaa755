/**
 * SCIM tokens: `SCIMTOKEN#<id>` / `SCIMTOKEN`, holding the SHA-256 of the
 * token's secret (never the secret), its description, times and optional
 * expiry; listed by
 * creation in byName partition `SCIMTOKENS`. The authorizer reads one by its
 * key and nothing else (lib/scim/tokens.ts).
 */
import { Condition, Update } from '../db/expression';
import * as attr from '../db/item-kind';
import { getItem, updateItem } from '../db/items';
import { queryPage } from '../db/query';
import { INDEXES, type Item, type Key } from '../db/table';
import { isConditionFailure, put, remove, type Explain, type Write } from '../db/transact';
import { KEY_SEPARATOR } from '../text';

const PARTITION = 'SCIMTOKENS';
/** The partition keys of SCIM tokens start with this (the stack fences these items off by it). */
export const SCIM_TOKEN_KEY_PREFIX = 'SCIMTOKEN#';

export interface StoredScimToken {
  id: string;
  description: string;
  /** Hex SHA-256 of the secret. */
  secret_hash: string;
  created_at: string;
  /** After this the token stops working; null: until it is deleted. */
  expires_at: string | null;
  last_used_at: string | null;
}

const scimTokenKind = attr.itemKind({
  type: 'scim-token',
  key: (id: string): Key => ({ pk: `${SCIM_TOKEN_KEY_PREFIX}${id}`, sk: 'SCIMTOKEN' }),
  attributes: {
    id: attr.string,
    description: attr.string,
    secret_hash: attr.string,
    created_at: attr.string,
    /** Absent on a token that never expires. */
    expires_at: attr.optional(attr.string),
    /** Absent until its first use (touchScimToken's condition needs it so). */
    last_used_at: attr.optional(attr.string),
  },
  indexAttributes: { gsi1pk: attr.string, gsi1sk: attr.string },
});

export const scimTokenKey = scimTokenKind.key;

function toToken(item: Item): StoredScimToken {
  const { expires_at, last_used_at, ...token } = scimTokenKind.read(item);
  return { ...token, expires_at: expires_at ?? null, last_used_at: last_used_at ?? null };
}

/** A new token, never used yet. */
export const scimTokenPut = ({ expires_at, ...token }: Omit<StoredScimToken, 'last_used_at'>): Write =>
  put(
    scimTokenKind.item(scimTokenKey(token.id), {
      ...token,
      ...(expires_at === null ? {} : { expires_at }),
      gsi1pk: PARTITION,
      gsi1sk: `${token.created_at}${KEY_SEPARATOR}${token.id}`,
    }),
    new Condition().whenAbsent(),
  );

/** Deletes the token; `explain` answers one that is not there. */
export const scimTokenDelete = (id: string, explain: Explain): Write => remove(scimTokenKey(id), new Condition().whenExists(), { explain });

/** Strongly consistent: a deleted token stops working at once (on AWS, the authorizer's cache delays it). */
export async function findScimToken(id: string): Promise<StoredScimToken | undefined> {
  const item = await getItem(scimTokenKey(id));
  return item ? toToken(item) : undefined;
}

/** Every token, oldest first (an administrator keeps a handful). */
export async function listScimTokens(): Promise<StoredScimToken[]> {
  const tokens: StoredScimToken[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await queryPage({ index: INDEXES.byName, partition: PARTITION }, { startKey, limit: 100 });
    tokens.push(...page.items.map(toToken));
    startKey = page.next;
  } while (startKey);
  return tokens;
}

/** Records a use at `now`, unless one was recorded after `since` (so at most one write a minute). */
export async function touchScimToken(id: string, now: string, since: string): Promise<void> {
  const update = new Update().set('last_used_at', now).whenExists();
  update.when(`attribute_not_exists(${update.name('last_used_at')}) OR ${update.name('last_used_at')} < ${update.value(since)}`);
  try {
    await updateItem(scimTokenKey(id), update);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
