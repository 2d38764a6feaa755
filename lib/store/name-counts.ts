/**
 * Last-name counters: how many users of a scope — a membership (in some
 * department, or in none) or one department — have each case-folded last
 * name. One item per scope and name, `NAMES#USERS#IN` or `NAMES#DEPT#<id>` /
 * `<folded name>`, with `n`. A prefix total is a Query of the names with that
 * prefix: its cost grows with the different names that share the prefix,
 * not with the users who bear them.
 */
import { partitionItems } from '../db/batch';
import { Update } from '../db/expression';
import * as attr from '../db/item-kind';
import type { Item, Key } from '../db/table';
import { update, type Write } from '../db/transact';
import { scopePrefix, type Membership } from './users';

/** Whose last names a counter counts. */
export type NameScope = { membership: Membership } | { department: string };

const partition = (scope: NameScope) => `NAMES#${scopePrefix(scope)}`;
const nameCountKey = (scope: NameScope, foldedName: string): Key => ({ pk: partition(scope), sk: foldedName });
/** How many users bear the name: the only attribute of a counter (it has no `type`: ADD alone writes it). */
const usersOf = (item: Item) => attr.readAttribute(item, 'n', attr.orElse(attr.number, 0));

export function addNameCount(scope: NameScope, foldedName: string, delta: number): Write[] {
  return delta === 0 ? [] : [update(nameCountKey(scope, foldedName), new Update().add('n', delta))];
}

/** The scope's counters in name order (either way): `[folded name, users]`. */
export async function* namesInOrder(scope: NameScope, descending: boolean): AsyncGenerator<[string, number]> {
  for await (const item of partitionItems(partition(scope), { consistent: false, descending, pageSize: 1000 })) {
    yield [attr.keyOf(item).sk, usersOf(item)];
  }
}

/** Users of `scope` whose folded last name starts with `prefix`. */
export async function countNames(scope: NameScope, prefix: string): Promise<number> {
  let total = 0;
  for await (const item of partitionItems(partition(scope), { consistent: false, skPrefix: prefix })) total += usersOf(item);
  return total;
}
