/** Users as the domain reads them: the representation, and reads with their 404. */
import { StaleReadError } from '../db/errors';
import { notFound } from '../problems';
import { findUser, type StoredUser, type User } from '../store/users';

export type { StoredUser, User };

/** The API representation: the stored user without its version (which travels as the ETag) and lock. */
export const userRepresentation = ({ version: _version, bulk_lock: _lock, ...user }: StoredUser): User => user;

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
