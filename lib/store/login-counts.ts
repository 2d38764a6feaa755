/**
 * Login counters: how many users of a membership (in some department, or in
 * none) last logged in on each day. One item per membership, month and shard,
 * `LOGINS#USERS#IN` / `<YYYY-MM>#<s>`, with a counter per day (`d01`…`d31`).
 * A `since`/`before` total is a Query of the months in range, summed day by
 * day, plus the part of the boundary day the counters cannot split (counted
 * by the caller). Every login moves a user's counter to today, so each month
 * is spread over a few shards; a Query reads them all.
 */
import { partitionItems } from '../db/batch';
import { Update } from '../db/expression';
import { keyOf } from '../db/item-kind';
import type { Key } from '../db/table';
import { update, type Write } from '../db/transact';
import type { Membership } from './users';

export const LOGIN_SHARDS = 4;

const partition = (membership: Membership) => `LOGINS#USERS#${membership}`;
const loginCountKey = (membership: Membership, month: string, shard: number): Key => ({
  pk: partition(membership),
  sk: `${month}#${shard}`,
});

/** `dDD` of an ISO time. */
export const dayAttribute = (time: string) => `d${time.slice(8, 10)}`;

/** Adds `days` (`dDD` → delta) to the counters of one month, in one shard. */
export function addLoginDays(membership: Membership, month: string, shard: number, days: Record<string, number>): Write[] {
  const changes = new Update();
  for (const [day, delta] of Object.entries(days)) if (delta !== 0) changes.add(day, delta);
  return changes.isEmpty ? [] : [update(loginCountKey(membership, month, shard % LOGIN_SHARDS), changes)];
}

/** Logins per day (`YYYY-MM-DD` → users of `membership` whose last login is that day), for the months `fromMonth` to `toMonth`. */
export async function loginsByDay(membership: Membership, fromMonth: string, toMonth: string): Promise<Map<string, number>> {
  const days = new Map<string, number>();
  const query = { consistent: false, skBetween: { from: fromMonth, to: `${toMonth}#\u{10FFFF}` } };
  for await (const item of partitionItems(partition(membership), query)) {
    const month = keyOf(item).sk.slice(0, 7);
    for (const [attribute, value] of Object.entries(item)) {
      if (!/^d\d\d$/.test(attribute) || typeof value !== 'number') continue;
      const day = `${month}-${attribute.slice(1)}`;
      days.set(day, (days.get(day) ?? 0) + value);
    }
  }
  return days;
}
