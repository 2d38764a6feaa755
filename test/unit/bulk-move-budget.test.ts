/**
 * The time a bulk move needs against the time its function has. A move of
 * many users is a row of transactions, one after another (reserve, a hold
 * per part, an apply per part, finish: lib/departments/bulk-move/driver.ts),
 * so its time grows with its parts; when it outlasts the function's timeout,
 * middy answers 503 in the middle of the move. Seen: E3 of 1,000 users took
 * 7.5 s on DynamoDB Local on an idle 2-core machine and over 10 s (the
 * default timeout) on a busy one.
 */
import { describe, expect, it } from 'vitest';
import { MAX_BULK_USERS } from '../../lib/departments/bulk-membership';
import { BULK_LEASE_MS } from '../../lib/departments/bulk-move/driver';
import { packParts } from '../../lib/departments/bulk-move/writes';
import { routes } from '../../lib/routes';
import type { StoredUser } from '../../lib/store/users';

/** One transaction of up to 100 items on DynamoDB Local: ~120 ms measured (E3 of 1,000 users, 62 transactions, 7.2 s raw). */
const LOCAL_TRANSACTION_MS = 120;
/** Room for a busy machine (the bench shares its 2 cores) and for retries. */
const HEADROOM = 2;

/** The most parts a move of the largest size packs into: every user from its own department, with its own last name and login day. */
function worstCaseParts(): number {
  const users = Array.from({ length: MAX_BULK_USERS }, (_, n): StoredUser => ({
    id: `u${String(n).padStart(5, '0')}`,
    email: `u${n}@example.com`,
    user_name: `u${n}@example.com`,
    external_id: null,
    first_name: '',
    last_name: `Name${n}`,
    account_role: (['admin', 'manager', 'guest', 'member'] as const)[n % 4],
    activated: n % 2 === 0,
    last_login: `2026-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}T08:00:00.000Z`,
    department_id: `d${n}`,
    created_at: '',
    updated_at: '',
    version: 1,
  }));
  return packParts(users, 'target').length;
}

describe('a bulk move of the largest size fits its function', () => {
  const transactions = 2 * worstCaseParts() + 2;

  it.each(['E3', 'E5'])('%s has the time for it on DynamoDB Local, with room to spare', (operationId) => {
    const route = routes.find((r) => r.label === operationId)!;
    const timeoutMs = (route.timeoutSeconds ?? 10) * 1000;
    expect(transactions * LOCAL_TRANSACTION_MS * HEADROOM).toBeLessThanOrEqual(timeoutMs);
  });

  it.each(['E3', 'E5'])('the healer waits for %s: a lease outlasts the function', (operationId) => {
    const route = routes.find((r) => r.label === operationId)!;
    expect(BULK_LEASE_MS).toBeGreaterThan((route.timeoutSeconds ?? 10) * 1000);
  });
});
