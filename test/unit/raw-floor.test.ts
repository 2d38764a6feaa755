/**
 * The bench's raw floor (bench/support/raw.ts) writes its DynamoDB commands
 * by hand, as the floor an operation's handler is measured against. It must
 * not drift from what the service writes: the same keys, items and touched
 * attributes as the store modules' for every operation it mirrors (E2, E3,
 * G4). A floor that drifts would make the overhead figures lie.
 */
import { describe, expect, it } from 'vitest';
import {
  auditPut,
  bulkHeaderItem,
  bulkPartItem,
  membershipItemsRaw,
  movedUserItem,
  rawKeys,
  reservation,
  statsUpdate,
  usageUpdate,
} from '../../bench/support/raw';
import { auditPut as storeAuditPut } from '../../lib/store/audit';
import { headerPut, partPut } from '../../lib/store/bulk-moves';
import { addUsageWrite, reserveUsageWrite, usageOnly, type Usage } from '../../lib/store/departments';
import { membershipItems } from '../../lib/store/memberships';
import { addCounters } from '../../lib/store/stats';
import { userItem, userKey, type User } from '../../lib/store/users';
import { groupKey } from '../../lib/store/groups';
import { departmentKey } from '../../lib/store/departments';
import type { Write } from '../../lib/db/transact';

type Item = Record<string, unknown>;
const TABLE = 'dept-admin';
const at = '2026-11-21T09:30:00.000Z';

const stored: User & { version: number } = {
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  account_role: 'admin',
  activated: true,
  last_login: null,
  department_id: 'd-old',
  created_at: at,
  updated_at: at,
  version: 3,
};

const KEYWORDS = new Set([
  'SET',
  'ADD',
  'REMOVE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'BETWEEN',
  'attribute_exists',
  'attribute_not_exists',
  'begins_with',
]);

/** A transaction item's target and what it touches, without the placeholder names each side chooses. */
function touched(item: Record<string, Record<string, unknown>>) {
  const [kind, body] = Object.entries(item)[0];
  const placeholders = (body.ExpressionAttributeNames as Record<string, string>) ?? {};
  const expressions = [body.UpdateExpression, body.ConditionExpression].filter(Boolean).join(' ');
  const words =
    expressions
      .replace(/#\w+/g, (placeholder) => placeholders[placeholder])
      .replace(/:\w+/g, ' ')
      .match(/[A-Za-z_]\w*/g) ?? [];
  const names = [...new Set(words.filter((word) => !KEYWORDS.has(word)))].sort();
  const values = Object.values((body.ExpressionAttributeValues as Record<string, unknown>) ?? {})
    .map((v) => JSON.stringify(v))
    .sort();
  return { kind, key: body.Key ?? null, names, values, item: body.Item ?? null };
}
const write = (w: Write) => touched(w.item as never);

const usage: Usage = { users: 2, activated_users: 1, admins: 1, managers: 0, guests: 0 };

describe('the raw floor writes what the store writes', () => {
  it('keys', () => {
    expect(rawKeys.user('u1')).toEqual(userKey('u1'));
    expect(rawKeys.department('d1')).toEqual(departmentKey('d1'));
    expect(rawKeys.group('g1')).toEqual(groupKey('g1'));
  });

  it('E2: the moved user item', () => {
    const { version, ...user } = stored;
    expect(movedUserItem(stored as Item, 'd-new', at)).toEqual(userItem({ ...user, department_id: 'd-new', updated_at: at }, version + 1));
    expect(movedUserItem(stored as Item, null, at)).toEqual(userItem({ ...user, department_id: null, updated_at: at }, version + 1));
  });

  it('E2: the counters of both departments and the service counters', () => {
    const minus = { users: -1, activated_users: -1, admins: -1, managers: 0, guests: 0 };
    const plus = { users: 1, activated_users: 1, admins: 1, managers: 0, guests: 0 };
    expect(touched(usageUpdate(TABLE, 'd-old', minus, at) as never)).toEqual(write(addUsageWrite('d-old', usageOnly(minus), at)));
    expect(touched(usageUpdate(TABLE, 'd-new', plus, at) as never)).toEqual(write(addUsageWrite('d-new', usageOnly(plus), at)));
    const deltas = { users_OUT_admin: -1, users_IN_admin: 1 };
    expect(touched(statsUpdate(TABLE, 'u1', deltas) as never)).toEqual(write(addCounters('u1', deltas)[0]));
  });

  it('the audit entry, but for its random id', () => {
    const raw = (auditPut(TABLE, 'E2', 'department', 'd-new', { added_user_ids: ['u1'] }, at) as { Put: { Item: Item } }).Put.Item;
    const store = (
      storeAuditPut({
        at,
        actor: 'bench',
        operation: 'E2',
        request_id: 'r',
        resource_type: 'department',
        resource_id: 'd-new',
        changes: { added_user_ids: ['u1'] },
      }).item as { Put: { Item: Item } }
    ).Put.Item;
    const withoutIds = ({ pk: _pk, id: _id, gsi1sk, request_id: _r, ...rest }: Item) => ({ ...rest, at_key: String(gsi1sk).split('#')[0] });
    expect(withoutIds(raw)).toEqual(withoutIds(store));
  });

  it('E3: the bulk move header, parts and reservation', () => {
    const lease = '2026-11-21T09:31:00.000Z';
    const header = (
      headerPut({ op: 'op1', operation: 'E3', target: 'd-new', at, leaseUntil: lease, parts: 3, reserved: usage }).item as {
        Put: { Item: Item };
      }
    ).Put.Item;
    expect(bulkHeaderItem('op1', 'd-new', at, lease, 3, usage)).toEqual(header);
    expect(bulkPartItem('op1', 2, ['u1', 'u2'], usage)).toEqual(
      (partPut('op1', 2, ['u1', 'u2'], usage).item as { Put: { Item: Item } }).Put.Item,
    );
    expect(touched(reservation(TABLE, 'd-new', usage, at) as never)).toEqual(
      write(reserveUsageWrite('d-new', usageOnly(usage), undefined, at)),
    );
  });

  it('G4: the two membership items', () => {
    expect(membershipItemsRaw('g1', 'gen1', 'u1', at)).toEqual(membershipItems({ id: 'g1', generation: 'gen1' }, 'u1', at));
  });
});
