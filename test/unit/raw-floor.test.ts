/**
 * The bench's raw floor (bench/support/raw.ts) writes its DynamoDB commands
 * by hand, as the floor an operation's handler is measured against. It must
 * not drift from what the service sends: a floor that drifts would make the
 * overhead figures lie. Two levels of checks:
 *
 * - transactions: every item of the floor's transactions against the one
 *   the service builds (lib/users/changes.ts + lib/audit/context.ts for E2,
 *   lib/departments/bulk-move/writes.ts for E3, lib/groups/members.ts for
 *   G4): each Put item equal (but for the audit entry's random id and
 *   request id), each Update/Delete/ConditionCheck on the same key with the
 *   same update clauses (attribute → value) and the same conditions, once
 *   the placeholder names each side chooses are resolved;
 * - calls: the domain functions of E1, E2, E3, G1 and G4 run against a fake
 *   DynamoDB and so does the floor; both must send the same commands, with
 *   the same inputs, in the same order and as many at once.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as raw from '../../bench/support/raw';
import { recordChange, type ChangeContext } from '../../lib/audit/context';
import { db, tableName } from '../../lib/db/client';
import type { TransactItem, Write } from '../../lib/db/transact';
import { addUsersToDepartment } from '../../lib/departments/bulk-membership';
import { BULK_LEASE_MS } from '../../lib/departments/bulk-move/driver';
import {
  applyWrites,
  holdWrites,
  packParts,
  reservationOf,
  reservationWrites,
  singleTransaction,
  type BulkMove,
} from '../../lib/departments/bulk-move/writes';
import { addUserToDepartment } from '../../lib/departments/membership';
import { getGroupWithUsers, groupAudit } from '../../lib/groups/groups';
import { addUserToGroup, groupCountWrite, userCheckWrite } from '../../lib/groups/members';
import { userListRequest } from '../../lib/http/list-params';
import { listUsers } from '../../lib/lists/users';
import { headerDelete, headerPut } from '../../lib/store/bulk-moves';
import { departmentKey, newDepartmentItem, toDepartment } from '../../lib/store/departments';
import { groupKey, newGroupItem } from '../../lib/store/groups';
import { membershipItems, membershipPuts } from '../../lib/store/memberships';
import { statsShardKey } from '../../lib/store/stats';
import { departmentCopyItem, departmentCopyKey, toStoredUser, userItem, userKey, type StoredUser, type User } from '../../lib/store/users';
import { KEY_SEPARATOR } from '../../lib/text';
import { cellCounterName } from '../../lib/users/counters';
import { userChangeWrites } from '../../lib/users/changes';
import { userRepresentation } from '../../lib/users/user';

type Item = Record<string, unknown>;
type Doc = DynamoDBDocumentClient;
const TABLE = tableName();
const EARLIER = '2026-10-01T07:00:00.000Z';
const at = '2026-11-21T09:30:00.000Z';
const ctx = (operationId: string): ChangeContext => ({ actor: 'bench', operationId, requestId: 'request-1' });

function makeUser(id: string, overrides: Partial<User> = {}): User {
  return {
    id,
    email: `${id}@example.com`,
    user_name: `${id}@example.com`,
    external_id: null,
    first_name: 'Ada',
    last_name: 'Lovelace',
    account_role: 'admin',
    activated: true,
    last_login: '2026-11-20T08:15:00.000Z',
    department_id: 'd-old',
    created_at: EARLIER,
    updated_at: EARLIER,
    ...overrides,
  };
}

// --- normalising a transaction item -------------------------------------------------

/** Splits `text` at `token` where no parenthesis is open. */
function splitTop(text: string, token: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && text.startsWith(token, i)) {
      parts.push(text.slice(start, i));
      start = i + token.length;
      i += token.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

/** Drops parentheses around the whole of `text`. */
function unwrap(text: string): string {
  let t = text.trim();
  const wrapsWhole = (s: string) => {
    let depth = 0;
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '(') depth++;
      else if (s[i] === ')' && --depth === 0 && i < s.length - 1) return false;
    }
    return true;
  };
  while (t.startsWith('(') && t.endsWith(')') && wrapsWhole(t)) t = t.slice(1, -1).trim();
  return t;
}

/** A condition as the set of what must hold: conjuncts, each with its disjuncts in a fixed order. */
function conjuncts(condition: string): string[] {
  const parts = splitTop(unwrap(condition), ' AND ');
  if (parts.length > 1) return parts.flatMap(conjuncts);
  const disjuncts = splitTop(parts[0], ' OR ').map(unwrap);
  return [disjuncts.sort().join(' OR ').replace(/\s+/g, ' ')];
}

/** Resolves the placeholders of an expression; every one must be defined, and every one defined used. */
function resolver(body: Item) {
  const names = (body.ExpressionAttributeNames as Record<string, string> | undefined) ?? {};
  const values = (body.ExpressionAttributeValues as Record<string, unknown> | undefined) ?? {};
  const used = new Set<string>();
  const resolve = (expression: string) =>
    expression.replace(/[#:][A-Za-z0-9_]+/g, (placeholder) => {
      used.add(placeholder);
      if (placeholder.startsWith('#')) {
        if (!(placeholder in names)) throw new Error(`undefined name placeholder ${placeholder}`);
        return names[placeholder];
      }
      if (!(placeholder in values)) throw new Error(`undefined value placeholder ${placeholder}`);
      return JSON.stringify(values[placeholder]);
    });
  const unused = () => [...Object.keys(names), ...Object.keys(values)].filter((placeholder) => !used.has(placeholder));
  return { resolve, unused };
}

/** SET / ADD / REMOVE clauses as attribute → value. */
function clauses(expression: string, resolve: (e: string) => string) {
  const result: { SET: Record<string, string>; ADD: Record<string, string>; REMOVE: string[] } = { SET: {}, ADD: {}, REMOVE: [] };
  const marks = [...expression.matchAll(/\b(SET|ADD|REMOVE)\b/g)];
  marks.forEach((mark, i) => {
    const body = expression.slice(mark.index! + mark[0].length, marks[i + 1]?.index ?? expression.length);
    for (const part of splitTop(body, ',')) {
      if (mark[1] === 'SET') {
        const [name, value] = part.split('=').map((s) => s.trim());
        result.SET[resolve(name)] = resolve(value);
      } else if (mark[1] === 'ADD') {
        const [name, value] = part.split(/\s+/);
        result.ADD[resolve(name)] = resolve(value);
      } else result.REMOVE.push(resolve(part));
    }
  });
  result.REMOVE.sort();
  return result;
}

/** The audit entry without its random id and request id (checking that its sort keys are made of them). */
function withoutRandomIds(item: Item): Item {
  if (item.type !== 'audit') return item;
  const id = String(item.id);
  expect(item.pk).toBe(`AUDIT#${id}`);
  expect(item.gsi1sk).toBe(`${String(item.at)}${KEY_SEPARATOR}${id}`);
  expect(item.gsi2sk).toBe(item.gsi1sk);
  expect(typeof item.request_id).toBe('string');
  return { ...item, pk: 'AUDIT#<id>', id: '<id>', gsi1sk: '<at><id>', gsi2sk: '<at><id>', request_id: '<request>' };
}

/** What a transaction item does, whatever placeholders it chose. */
function normalised(entry: TransactItem) {
  const [kind, body] = Object.entries(entry)[0] as [string, Item];
  const {
    TableName,
    Key,
    Item: item,
    UpdateExpression,
    ConditionExpression,
    ExpressionAttributeNames: _names,
    ExpressionAttributeValues: _values,
    ReturnValuesOnConditionCheckFailure,
    ...others
  } = body;
  const { resolve, unused } = resolver(body);
  const result = {
    kind,
    table: TableName,
    key: Key ?? null,
    item: item ? withoutRandomIds(item as Item) : null,
    update: UpdateExpression ? clauses(String(UpdateExpression), resolve) : null,
    condition: ConditionExpression ? conjuncts(resolve(String(ConditionExpression))).sort() : null,
    returnOld: ReturnValuesOnConditionCheckFailure ?? null,
    others,
  };
  expect(unused(), `${kind} ${JSON.stringify(Key ?? (item as Item)?.pk)} defines placeholders it does not use`).toEqual([]);
  return result;
}

const ofRaw = (items: TransactItem[]) => items.map(normalised);
const ofStore = (writes: Write[]) => writes.map((write) => normalised(write.item));

// --- E2 -----------------------------------------------------------------------------

/** The service's E2 transaction for the stored item (lib/departments/membership.ts). */
function storeE2(stored: Item, departmentId: string): Write[] {
  const before: StoredUser = toStoredUser(stored);
  const after = { ...userRepresentation(before), department_id: departmentId, updated_at: at };
  const changes = { added_user_ids: [before.id], ...(before.department_id ? { moved_from: { [before.id]: before.department_id } } : {}) };
  return [
    ...userChangeWrites({ before, after }, at),
    recordChange(ctx('E2'), { resourceType: 'department', resourceId: departmentId, changes }, at),
  ];
}

describe('the raw floor builds the transactions the service builds', () => {
  it('keys and items', () => {
    const user = makeUser('u1');
    expect(raw.rawKeys.user('u1')).toEqual(userKey('u1'));
    expect(raw.rawKeys.departmentCopy('u1')).toEqual(departmentCopyKey('u1'));
    expect(raw.rawKeys.department('d1')).toEqual(departmentKey('d1'));
    expect(raw.rawKeys.group('g1')).toEqual(groupKey('g1'));
    expect(raw.rawKeys.statsShard(7)).toEqual(statsShardKey(7));
    expect(raw.rawUserItem(user, 4)).toEqual(userItem(user, 4));
    expect(raw.rawUserItem({ ...user, department_id: null, last_login: null }, 1)).toEqual(
      userItem({ ...user, department_id: null, last_login: null }, 1),
    );
    expect(raw.rawDepartmentCopy(user)).toEqual(departmentCopyItem({ ...user, department_id: 'd-old' }));
  });

  it('E2: a move between departments, of a user who has logged in', () => {
    const stored = userItem(makeUser('u1', { department_id: 'd-old' }), 3);
    const rawItems = raw.e2Transaction(TABLE, stored, 'd-new', at);
    // The user, its copy, both departments' counters, its last name in each department, the audit entry: the same
    // membership, no other counter moves.
    expect(rawItems.map((i) => Object.keys(i)[0])).toEqual(['Put', 'Put', 'Update', 'Update', 'Update', 'Update', 'Put']);
    expect(ofRaw(rawItems)).toEqual(ofStore(storeE2(stored, 'd-new')));
  });

  it('E2: from no department into one, of a user who has logged in', () => {
    const stored = userItem(makeUser('u2', { department_id: null, account_role: 'manager', last_name: 'Hopper' }), 5);
    const rawItems = raw.e2Transaction(TABLE, stored, 'd-new', at);
    // User, copy, department, service cells, login days OUT and IN, last names OUT, IN and the department's, audit.
    expect(rawItems).toHaveLength(10);
    expect(ofRaw(rawItems)).toEqual(ofStore(storeE2(stored, 'd-new')));
  });
});

// --- E3 -----------------------------------------------------------------------------

/** Users from two departments and from none, with and without logins, several last names. */
function e3Users(count: number, heldBy?: string): Item[] {
  const names = ['Lovelace', 'hopper', 'Turing', 'Hamilton', 'liskov'];
  const roles = ['admin', 'manager', 'member', 'guest'] as const;
  return Array.from({ length: count }, (_, n) => {
    const user = makeUser(`e${String(n).padStart(3, '0')}`, {
      department_id: n % 3 === 0 ? null : n % 3 === 1 ? 'd-a' : 'd-b',
      last_name: names[n % names.length],
      account_role: roles[n % roles.length],
      activated: n % 4 !== 0,
      last_login: n % 5 === 0 ? null : n % 2 === 0 ? '2026-11-20T08:15:00.000Z' : '2026-10-03T17:00:00.000Z',
    });
    return { ...userItem(user, 2 + (n % 3)), ...(heldBy ? { bulk_lock: heldBy } : {}) };
  });
}

const target = (limits: Item = {}): Item => ({ ...newDepartmentItem('d-t', 'Target', EARLIER), ...limits });

function bulkMove(users: Item[], targetItem: Item): BulkMove {
  const stored = users.map(toStoredUser);
  const movedFrom = Object.fromEntries(stored.filter((u) => u.department_id).map((u) => [u.id, u.department_id]));
  return {
    ctx: ctx('E3'),
    target: String(targetItem.id),
    targetAsRead: toDepartment(targetItem),
    users: stored,
    audit: {
      resourceType: 'department',
      resourceId: String(targetItem.id),
      changes: { added_user_ids: stored.map((u) => u.id), ...(Object.keys(movedFrom).length > 0 ? { moved_from: movedFrom } : {}) },
    },
  };
}

describe('E3: the raw floor builds the bulk move the service builds', () => {
  it('packs the same parts', () => {
    const users = e3Users(150);
    const rawParts = raw.packParts(users, 'd-t').map((part) => part.map((u) => u.id));
    const storeParts = packParts(users.map(toStoredUser), 'd-t').map((part) => part.map((u) => u.id));
    expect(rawParts).toEqual(storeParts);
    expect(rawParts.length).toBeGreaterThan(1);
    // One user from no department (never logged in) among members of one department: 15 counter items (both departments,
    // the cell shard, last names OUT and IN, the five last names in each department), so 41 users (82 items + 15 + part +
    // header = 99) fill a part; 42 would not fit.
    const mixed = [e3Users(1)[0], ...e3Users(300).filter((u) => u.department_id === 'd-a')];
    const sizes = (parts: unknown[][]) => parts.map((part) => part.length);
    expect(sizes(raw.packParts(mixed, 'd-t'))).toEqual(sizes(packParts(mixed.map(toStoredUser), 'd-t')));
    expect(sizes(raw.packParts(mixed, 'd-t'))[0]).toBe(41);
  });

  it('one apply transaction: part, header, users and copies, every counter', () => {
    const users = e3Users(30, 'op1');
    const rawItems = raw.e3ApplyTransaction(TABLE, 'op1', 2, users, 'd-t', at);
    const storeItems = applyWrites({ op: 'op1', target: 'd-t', at }, 2, users.map(toStoredUser));
    expect(ofRaw(rawItems)).toEqual(ofStore(storeItems));
  });

  it('reserve (under the limits as read), hold, commit and finish', () => {
    const users = e3Users(60);
    const targetItem = target({ limit_users: 500, limit_admins: 40 });
    const move = bulkMove(users, targetItem);
    const reserved = reservationOf(move);
    const parts = packParts(move.users, 'd-t');
    const leaseUntil = new Date(Date.parse(at) + BULK_LEASE_MS).toISOString();
    const storeReserve = [
      headerPut({ op: 'op1', operation: 'E3', target: 'd-t', at, leaseUntil, parts: parts.length, reserved }),
      ...reservationWrites(move, reserved, at),
    ];
    expect(ofRaw(raw.e3ReserveTransaction(TABLE, 'op1', targetItem, at, parts.length, users))).toEqual(ofStore(storeReserve));

    const part = users.slice(0, 20);
    expect(ofRaw(raw.e3HoldTransaction(TABLE, 'op1', 0, part))).toEqual(ofStore(holdWrites('op1', 0, part.map(toStoredUser), undefined)));
    const commit = recordChange(move.ctx, move.audit, at);
    expect(ofRaw(raw.e3HoldTransaction(TABLE, 'op1', 1, part, raw.e3Audit(TABLE, 'd-t', users, at)))).toEqual(
      ofStore(holdWrites('op1', 1, part.map(toStoredUser), commit)),
    );
    expect(ofRaw(raw.e3FinishTransaction(TABLE, 'op1'))).toEqual(ofStore([headerDelete('op1', 'applying', () => new Error())]));
  });

  it('a move that fits in one transaction', () => {
    const users = e3Users(30);
    const targetItem = target({ limit_users: 500 });
    const move = bulkMove(users, targetItem);
    const single = singleTransaction(move, reservationOf(move), at);
    expect(single).toBeDefined();
    expect(ofRaw(raw.e3SingleTransaction(TABLE, users, targetItem, at)!)).toEqual(ofStore(single!));
  });
});

// --- G4 -----------------------------------------------------------------------------

describe('G4: the raw floor builds the transaction the service builds', () => {
  it('the two membership items', () => {
    expect(raw.membershipItemsRaw('g1', 'gen1', 'u1', at)).toEqual(membershipItems({ id: 'g1', generation: 'gen1' }, 'u1', at));
  });

  it('the whole transaction', () => {
    const group = { id: 'g1', generation: 'gen1' };
    const store = [
      ...membershipPuts(group, 'u1', at, () => new Error()),
      groupCountWrite(group, 1, at, { published: true }),
      userCheckWrite('u1', at),
      groupAudit(ctx('G4'), 'g1', { added_user_ids: ['u1'] }, at),
    ];
    expect(ofRaw(raw.g4Transaction(TABLE, 'g1', 'gen1', 'u1', at))).toEqual(ofStore(store));
  });
});

// --- the calls, against a fake DynamoDB ---------------------------------------------

interface Sent {
  command: string;
  /** Commands in flight when it was sent, itself included: parallel sends show here. */
  inFlight: number;
  input: Item;
}

/** A table in memory that answers reads (Query in index or key order, with Limit) and accepts every write unchanged. */
function fakeTable(items: Item[]) {
  const byKey = new Map(items.map((item) => [`${String(item.pk)}|${String(item.sk)}`, item]));
  const sent: Sent[] = [];
  let inFlight = 0;
  const answer = (name: string, input: Record<string, any>) => {
    if (name === 'GetCommand') return { Item: byKey.get(`${input.Key.pk}|${input.Key.sk}`) };
    if (name === 'BatchGetCommand') {
      const [[table, request]] = Object.entries(input.RequestItems as Record<string, { Keys: Item[] }>);
      return { Responses: { [table]: request.Keys.flatMap((key) => byKey.get(`${String(key.pk)}|${String(key.sk)}`) ?? []) } };
    }
    if (name === 'QueryCommand') {
      const [partitionAttribute, sortAttribute] = input.IndexName === 'gsi1' ? ['gsi1pk', 'gsi1sk'] : ['pk', 'sk'];
      const partition = Object.values(input.ExpressionAttributeValues as Item)[0];
      const found = items
        .filter((item) => item[partitionAttribute] === partition && item[sortAttribute] !== undefined)
        .sort((a, b) => (String(a[sortAttribute]) < String(b[sortAttribute]) ? -1 : 1));
      if (input.ScanIndexForward === false) found.reverse();
      const page = input.Limit ? found.slice(0, input.Limit) : found;
      const last = page.length < found.length ? page[page.length - 1] : undefined;
      const projected = input.ProjectionExpression
        ? page.map((item) => ({ [input.ProjectionExpression]: item[input.ProjectionExpression] }))
        : page;
      return { Items: projected, LastEvaluatedKey: last && { pk: last.pk, sk: last.sk } };
    }
    if (name === 'TransactWriteCommand') return {};
    throw new Error(`the fake table does not answer ${name}`);
  };
  const send = async (command: { constructor: { name: string }; input: Record<string, any> }) => {
    inFlight++;
    sent.push({ command: command.constructor.name, inFlight, input: JSON.parse(JSON.stringify(command.input)) as Item });
    await new Promise((resolve) => setTimeout(resolve, 2));
    inFlight--;
    return answer(command.constructor.name, command.input);
  };
  return { sent, send, doc: { send } as unknown as Doc };
}

/** A sent command made comparable: transactions by what their items do, without the random request token; the op id of a bulk move named. */
function comparable(sent: Sent[]) {
  const header = sent.find((s) => s.command === 'TransactWriteCommand' && JSON.stringify(s.input).includes('"type":"bulk_move"'));
  const op = header ? (header.input.TransactItems as Array<{ Put?: { Item: Item } }>)[0].Put!.Item.id : undefined;
  return sent.map(({ command, inFlight, input }) => {
    // The op id is random, and so are the counter shards an apply picks from it (its own tests above fix the op).
    const named = op
      ? (JSON.parse(
          JSON.stringify(input)
            .replaceAll(String(op), '<op>')
            .replace(/"SHARD#\d\d"/g, '"SHARD#<n>"')
            .replace(/"(\d{4}-\d\d)#\d"/g, '"$1#<n>"'),
        ) as Item)
      : input;
    if (command !== 'TransactWriteCommand') return { command, inFlight, input: named };
    const { TransactItems, ClientRequestToken, ...rest } = named;
    expect(typeof ClientRequestToken).toBe('string');
    return { command, inFlight, input: rest, items: (TransactItems as TransactItem[]).map(normalised) };
  });
}

/** A small service's table: two departments, users in them and in none, their counters, a group. */
function dataset() {
  const users = e3Users(120).map((item, n) => {
    const user = userRepresentation(toStoredUser(item));
    return { ...user, department_id: n % 2 === 0 ? 'd-a' : n % 4 === 1 ? 'd-b' : null };
  });
  const items: Item[] = [newDepartmentItem('d-a', 'A', EARLIER), newDepartmentItem('d-b', 'B', EARLIER)];
  items.push(newDepartmentItem('d-t', 'Target', EARLIER));
  const cells: Record<string, number> = {};
  for (const user of users) {
    items.push(userItem(user, 2));
    if (user.department_id) items.push(departmentCopyItem({ ...user, department_id: user.department_id }));
    const counter = cellCounterName(user.department_id ? 'IN' : 'OUT', user);
    cells[counter] = (cells[counter] ?? 0) + 1;
  }
  items.push({ ...statsShardKey(0), ...cells }, { ...statsShardKey(3), departments: 3 });
  const group = newGroupItem({ id: 'g1', name: 'One', description: '', external_id: null }, 'gen1', EARLIER, {
    state: 'active',
    user_count: 30,
    version: 1,
  });
  items.push(group, ...users.slice(0, 30).flatMap((u) => membershipItems({ id: 'g1', generation: 'gen1' }, u.id, EARLIER)));
  return { items, users };
}

describe('the raw floor sends the calls the service sends', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  /** Runs the service's function and the floor against the same table, at the same time; answers what each sent. */
  async function both(service: () => Promise<unknown>, floor: (doc: Doc) => Promise<unknown>, warm = false) {
    const { items } = dataset();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(at));
    const serviceTable = fakeTable(items);
    vi.spyOn(db(), 'send').mockImplementation(serviceTable.send as never);
    if (warm) await service();
    serviceTable.sent.length = 0;
    await service();
    const floorTable = fakeTable(items);
    await floor(floorTable.doc);
    return { service: comparable(serviceTable.sent), floor: comparable(floorTable.sent) };
  }

  it('E1: the counters, then one Query of USERS#IN for the page and one more', async () => {
    const { service, floor } = await both(
      () => listUsers({ kind: 'in-department' }, userListRequest({ count: 100 })),
      (doc) => raw.rawE1(doc, TABLE, 100),
      true,
    );
    expect(floor).toEqual(service);
    expect(floor.map((s) => s.command)).toEqual(['QueryCommand', 'QueryCommand']);
  });

  it('E2: a move between departments', async () => {
    const { users } = dataset();
    const member = users.find((u) => u.department_id === 'd-a' && u.last_login)!;
    const { service, floor } = await both(
      () => addUserToDepartment(ctx('E2'), 'd-b', member.id),
      (doc) => raw.rawE2(doc, TABLE, 'd-b', member.id),
    );
    expect(floor).toEqual(service);
  });

  it('E2: from no department into one', async () => {
    const { users } = dataset();
    const outsider = users.find((u) => u.department_id === null && u.last_login)!;
    const { service, floor } = await both(
      () => addUserToDepartment(ctx('E2'), 'd-b', outsider.id),
      (doc) => raw.rawE2(doc, TABLE, 'd-b', outsider.id),
    );
    expect(floor).toEqual(service);
  });

  it('E3 of 100 users from two departments and none: the bulk protocol', async () => {
    const { users } = dataset();
    const ids = users.slice(0, 100).map((u) => u.id);
    const { service, floor } = await both(
      () => addUsersToDepartment(ctx('E3'), 'd-t', ids),
      (doc) => raw.rawE3(doc, TABLE, 'd-t', ids),
    );
    expect(floor).toEqual(service);
    expect(floor.filter((s) => s.command === 'TransactWriteCommand').length).toBeGreaterThan(4);
  });

  it('E3 of 30 users: one transaction', async () => {
    const { users } = dataset();
    const ids = users.slice(0, 30).map((u) => u.id);
    const { service, floor } = await both(
      () => addUsersToDepartment(ctx('E3'), 'd-t', ids),
      (doc) => raw.rawE3(doc, TABLE, 'd-t', ids),
    );
    expect(floor).toEqual(service);
    expect(floor.filter((s) => s.command === 'TransactWriteCommand')).toHaveLength(1);
  });

  it('G1: the group, its members, the users', async () => {
    const { service, floor } = await both(
      () => getGroupWithUsers('g1'),
      (doc) => raw.rawG1(doc, TABLE, 'g1'),
    );
    expect(floor).toEqual(service);
  });

  it('G4: the group and the user, then one transaction', async () => {
    const { users } = dataset();
    const { service, floor } = await both(
      () => addUserToGroup(ctx('G4'), 'g1', users[100].id),
      (doc) => raw.rawG4(doc, TABLE, 'g1', users[100].id),
    );
    expect(floor).toEqual(service);
  });
});
