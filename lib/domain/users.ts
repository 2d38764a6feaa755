/** Users: representation, storage mapping and reads. Writes go through user-changes.ts. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { batchGetItems } from '../db/bulk';
import { userKey } from '../db/keys';
import { StaleReadError } from '../db/transact';
import { notFound } from '../errors';
import type { AccountRole } from './quotas';

export interface User {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  account_role: AccountRole;
  activated: boolean;
  last_login: string | null;
  department_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A user as stored: the representation plus its version (the ETag). */
export interface StoredUser extends User {
  version: number;
  /** The bulk move that holds this user while it runs (bulk-move.ts); no other write may touch the user meanwhile. */
  bulk_lock?: string;
}

export const USER_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'account_role',
  'activated',
  'last_login',
  'department_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof User)[];

export function toUser(item: Record<string, unknown>): User {
  const user = {} as Record<string, unknown>;
  for (const field of USER_FIELDS) user[field] = item[field] ?? null;
  return user as unknown as User;
}

/** The API representation: the stored user without its version (which travels as the ETag). */
export const userRepresentation = ({ version: _version, bulk_lock: _lock, ...user }: StoredUser): User => user;

export function toStoredUser(item: Record<string, unknown>): StoredUser {
  const user: StoredUser = { ...toUser(item), version: Number(item.version) };
  if (typeof item.bulk_lock === 'string') user.bulk_lock = item.bulk_lock;
  return user;
}

/** Reads one user with a strongly consistent read (a GET right after a write must see it). */
export async function findUser(id: string): Promise<StoredUser | undefined> {
  const result = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(id), ConsistentRead: true }));
  return result.Item ? toStoredUser(result.Item) : undefined;
}

export async function getUser(id: string): Promise<StoredUser> {
  const user = await findUser(id);
  if (!user) throw notFound('User', id);
  return user;
}

/**
 * Reads a user that is about to change. A user held by a bulk move in
 * progress counts as a lost race: withFreshRead waits and reads again.
 */
export async function getUserForChange(id: string): Promise<StoredUser> {
  const user = await getUser(id);
  if (user.bulk_lock) throw new StaleReadError();
  return user;
}

/** Users by id, strongly consistent (BatchGetItem, see lib/db/bulk.ts); absent users are left out. */
export async function findUsers(ids: string[]): Promise<Map<string, StoredUser>> {
  const found = await batchGetItems(ids.map(userKey), { consistent: true });
  return new Map(found.map((item) => [String(item.id), toStoredUser(item)]));
}
