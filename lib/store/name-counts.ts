/**
 * Last-name counters: how many users of a membership (in some department, or
 * in none) have each case-folded last name. One item per membership and name,
 * `NAMES#USERS#IN` / `<folded name>`, with `n`. A prefix total is a Query of
 * the names with that prefix: its cost grows with the different names that
 * share the prefix, not with the users who bear them.
 */
import { partitionItems } from '../db/batch';
import { Update } from '../db/expression';
import type { Key } from '../db/table';
import { update, type Write } from '../db/transact';
import type { Membership } from './users';

const partition = (membership: Membership) => `NAMES#USERS#${membership}`;
const nameCountKey = (membership: Membership, foldedName: string): Key => ({ pk: partition(membership), sk: foldedName });

export function addNameCount(membership: Membership, foldedName: string, delta: number): Write[] {
  return delta === 0 ? [] : [update(nameCountKey(membership, foldedName), new Update().add('n', delta))];
}

/** Users of `membership` whose folded last name starts with `prefix`. */
export async function countNames(membership: Membership, prefix: string): Promise<number> {
  let total = 0;
  for await (const item of partitionItems(partition(membership), { consistent: false, skPrefix: prefix })) total += Number(item.n ?? 0);
  return total;
}
