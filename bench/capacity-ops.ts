/**
 * Capacity: every operation called once, in process, through its handler,
 * with a typical request, and the capacity DynamoDB reports for it
 * (ReturnConsumedCapacity on every call of the service's client, summed by
 * bench/support/capacity.ts), next to the minimum the data model needs,
 * worked out below, operation by operation, from the items it must read and
 * write (lib/store/ describes them; sizes come from the items as they
 * stand in the table, see bench/support/units.ts for the rules).
 *
 * "Minimum" means: the reads the answer or the write's conditions cannot do
 * without, and the writes the data model needs (the item, its index entries
 * under ALL projection, the counters, the audit entry, all in one
 * transaction). A read the service makes only to pick an error message, or
 * that a write's own condition could replace, is not in the minimum. Index
 * entries are charged by the data model's list of indexes per kind of item
 * (MODEL_INDEXES below), so an entry the service writes in an index nobody
 * lists that kind from shows as WCU above the minimum.
 *
 * Every command is also logged, so a Scan anywhere is flagged.
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../lib/db/client';
import { auditList } from '../lib/store/audit';
import { headerKey as bulkHeaderKey } from '../lib/store/bulk-moves';
import { claimKey } from '../lib/store/claims';
import { departmentKey, departmentList } from '../lib/store/departments';
import { groupNameKey } from '../lib/store/group-names';
import { groupKey, groupList } from '../lib/store/groups';
import { groupMemberKey, membersPartition, userGroupKey } from '../lib/store/memberships';
import { ENTERPRISE_SCHEMA, PATCH_SCHEMA, USER_SCHEMA } from '../lib/scim/schema';
import { reportKey } from '../lib/store/reports';
import { STATS_PARTITION } from '../lib/store/stats';
import { departmentCopyKey, userKey, userLists } from '../lib/store/users';
import type { Key } from '../lib/db/table';
import { MAX_TRANSACTION_ITEMS } from '../lib/db/transact';
import { INDEXES, type IndexDefinition } from '../lib/db/table';
import { capacitySoFar, measure, meterCapacity } from './support/capacity';
import { loadDataset, type Dataset, type Doc } from './support/dataset';
import { invoke } from './support/lambda';
import { get, itemSize, NOTHING, query, sum, tx, write, writeUnits, type Cost, type IndexChange, type Item } from './support/units';
import { progress, round, summarize } from './support/util';

/** Index partitions and keys, as the store modules define them. */
const AUDIT_PARTITION = auditList().partition;
const DEPARTMENTS_PARTITION = departmentList.byName().partition;
const GROUPS_PARTITION = groupList.byName().partition;
const usersPartition = (membership: 'IN' | 'OUT') => userLists.all({ membership }, 'name')[0].partition;
const emailClaimKey = (email: string) => claimKey('email', email);
const userNameClaimKey = (userName: string) => claimKey('user_name', userName);

export interface CapacityResult {
  operation: string;
  /** As DynamoDB Local reports it. */
  rcu: number;
  /** DynamoDB Local's figure for non-transactional writes, plus each transaction charged by DynamoDB's rules (see above). */
  wcu: number;
  min_rcu: number;
  /** Worked out below from the data model, by the same rules. */
  min_wcu: number;
  /** Of `wcu`, the part written to index entries. */
  index_wcu: number;
  /** What DynamoDB Local itself reported for the writes (wrong for transactions). */
  wcu_reported_by_local: number;
  calls: string;
  scans: number;
  meets_goal: boolean;
  note?: string;
  /** A row made of several requests (the SCIM startIndex pages): each one's figures. */
  steps?: unknown[];
}

// ---------------------------------------------------------------------------
// Command log: which commands each operation sends (and whether any scans),
// and what each transaction costs.
//
// DynamoDB Local's ConsumedCapacity for TransactWriteItems cannot be used:
// it adds up the *distinct* per-item capacities of a transaction (forty
// identical user rewrites are reported as one; see bench/README.md). So for
// every transaction the bench reads the items it touches just before and
// just after it (with its own, unmetered client) and charges it by the
// developer guide's rules: 2 WCU per KB per item (the larger of the item
// before and after), ConditionCheck included, plus each index entry put,
// moved (2) or deleted. Non-transactional writes and all reads are as
// DynamoDB Local reports them (those it counts right).

interface TransactionCharge {
  wcu: number;
  indexWcu: number;
}

const indexList = Object.values(INDEXES);

function indexEntry(item: Item | undefined, index: IndexDefinition): string | undefined {
  if (!item) return undefined;
  const pk = item[index.partitionKey];
  const sk = item[index.sortKey];
  // A multi-attribute sort key (the count indexes): an item without every attribute is not in the index.
  const then = index.thenBy === undefined ? '' : item[index.thenBy];
  return pk === undefined || sk === undefined || then === undefined ? undefined : `${String(pk)}\u0000${String(sk)}\u0000${String(then)}`;
}

const sameItem = (a: Item | undefined, b: Item | undefined) =>
  JSON.stringify(a, Object.keys(a ?? {}).sort()) === JSON.stringify(b, Object.keys(b ?? {}).sort());

function chargeTransaction(kinds: string[], before: Array<Item | undefined>, after: Array<Item | undefined>): TransactionCharge {
  let wcu = 0;
  let indexWcu = 0;
  kinds.forEach((kind, i) => {
    const units = writeUnits(Math.max(itemSize(before[i]), itemSize(after[i])));
    wcu += 2 * units;
    if (kind === 'ConditionCheck') return;
    for (const index of indexList) {
      const was = indexEntry(before[i], index);
      const is = indexEntry(after[i], index);
      if (was === undefined && is === undefined) continue;
      if (was === undefined || is === undefined) indexWcu += units;
      else if (was !== is) indexWcu += 2 * units;
      else if (!sameItem(before[i], after[i])) indexWcu += units;
    }
  });
  return { wcu: wcu + indexWcu, indexWcu };
}

let log: string[] = [];
let charged = { wcu: 0, indexWcu: 0, reportedByLocal: 0 };
let installed = false;

function installCommandLog(sizer: Sizer): void {
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      log.push(context.commandName ?? 'unknown');
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const items = (args.input as { TransactItems: Array<Record<string, { Key?: Key; Item?: Item }>> }).TransactItems;
      const kinds = items.map((entry) => Object.keys(entry)[0]);
      const keys = items.map((entry) => {
        const action = Object.values(entry)[0];
        const source = action.Key ?? action.Item!;
        return { pk: String(source.pk), sk: String(source.sk) };
      });
      const beforeItems = await sizer.maybeItems(keys);
      const result = await next(args);
      const afterItems = await sizer.maybeItems(keys);
      const charge = chargeTransaction(kinds, beforeItems, afterItems);
      if (process.env.BENCH_DEBUG_TX) {
        kinds.forEach((kind, i) => {
          const one = chargeTransaction([kind], [beforeItems[i]], [afterItems[i]]);
          console.error(
            `  tx ${kind} ${keys[i].pk}|${keys[i].sk} ${itemSize(beforeItems[i])}->${itemSize(afterItems[i])} wcu ${one.wcu} idx ${one.indexWcu}`,
          );
        });
      }
      charged.wcu += charge.wcu;
      charged.indexWcu += charge.indexWcu;
      for (const entry of [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity ?? []].flat() as Array<{
        CapacityUnits?: number;
      }>) {
        charged.reportedByLocal += entry.CapacityUnits ?? 0;
      }
      return result;
    },
    { step: 'initialize', priority: 'low', name: 'benchCommandLog' },
  );
}

// ---------------------------------------------------------------------------
// Reading items for their sizes (the bench's own client: not metered).

class Sizer {
  constructor(
    private readonly client: Doc,
    private readonly table: string,
  ) {}

  async item(key: Key): Promise<Item> {
    const result = await this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    if (!result.Item) throw new Error(`sizing: no item ${key.pk}/${key.sk}`);
    return result.Item;
  }

  items(keys: Key[]): Promise<Item[]> {
    return Promise.all(keys.map((key) => this.item(key)));
  }

  /** The items as they stand (undefined where absent), in the order of `keys`. */
  maybeItems(keys: Key[]): Promise<Array<Item | undefined>> {
    return Promise.all(
      keys.map(async (key) => (await this.client.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))).Item),
    );
  }

  /** The first `limit` entries of an index partition, in index order. */
  async indexPage(partition: string, limit: number, descending = false, index: IndexDefinition = INDEXES.byName): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': partition },
          ScanIndexForward: !descending,
          Limit: limit - items.length,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey && items.length < limit);
    return items;
  }

  /** The first `limit` entries of a byName partition after the sort key `after` (from the start without one). */
  async indexAfter(partition: string, after: string | undefined, limit: number): Promise<Item[]> {
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: INDEXES.byName.name,
        KeyConditionExpression: after === undefined ? '#pk = :pk' : '#pk = :pk AND #sk > :after',
        ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey, ...(after === undefined ? {} : { '#sk': INDEXES.byName.sortKey }) },
        ExpressionAttributeValues: { ':pk': partition, ...(after === undefined ? {} : { ':after': after }) },
        Limit: limit,
      }),
    );
    return result.Items ?? [];
  }

  /** Every item of a base-table partition. */
  async partition(pk: string): Promise<Item[]> {
    const result = await this.client.send(
      new QueryCommand({ TableName: this.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
    );
    return result.Items ?? [];
  }

  /** Audit entries written since `since` (ISO time), oldest first. */
  async auditSince(since: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: INDEXES.byName.name,
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
          ExpressionAttributeValues: { ':pk': AUDIT_PARTITION, ':since': since },
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

// ---------------------------------------------------------------------------
// The data model's write costs.
//
// Which indexes each kind of item is in, as the data model defines it (lib/store/ documents each kind; lib/db/table.ts
// the indexes). An item is charged for an entry of these indexes only: if the service puts an item into another index
// as well (it has both attributes of that index), that entry is not needed and shows as WCU above the minimum.

const MODEL_INDEXES = {
  /**
   * A user item: by name, by login, per cell by name, login and id, per login month, and while deactivated among the
   * deactivated by name (lib/store/users.ts).
   */
  user: ['gsi1', 'gsi4', 'gsi5', 'gsi6', 'gsi7', 'gsi8', 'gsi11'],
  /** A member's department copy: the same lists within its department. */
  departmentCopy: ['gsi1', 'gsi4', 'gsi5', 'gsi6', 'gsi7', 'gsi8', 'gsi11'],
  /**
   * Departments and published groups: by name, by creation and by member count (the count itself is the sort key,
   * so a change of `usage_users` / `user_count` moves that entry: 2 units; any other change rewrites it: 1).
   */
  department: ['gsi1', 'gsi4', 'gsi9'],
  group: ['gsi1', 'gsi4', 'gsi10'],
  /** An audit entry: the whole trail, per actor, per operation, per resource (lib/store/audit.ts). */
  audit: ['gsi1', 'gsi5', 'gsi8', 'gsi2'],
  /** Bulk move headers, report jobs, cleanup markers, pending groups: one queue of byName. */
  queued: ['gsi1'],
  /** Claims, memberships, counters (stats shards, login days, last names), bulk parts: no index. */
  plain: [],
} as const satisfies Record<string, readonly string[]>;
type Kind = keyof typeof MODEL_INDEXES;

const indexNamed = (name: string) => indexList.find((index) => index.name === name)!;

/** What a write does to the item's index entries in the data model: put (new, or rewritten), key (moved: 2), delete. */
function indexChanges(kind: Kind, before: Item | undefined, after: Item | undefined): IndexChange[] {
  const changes: IndexChange[] = [];
  for (const name of MODEL_INDEXES[kind]) {
    const was = indexEntry(before, indexNamed(name));
    const is = indexEntry(after, indexNamed(name));
    if (was === undefined && is === undefined) continue;
    if (was === undefined) changes.push('put');
    else if (is === undefined) changes.push('delete');
    else if (was !== is) changes.push('key');
    else if (!sameItem(before, after)) changes.push('put');
  }
  return changes;
}

/** One item written in a transaction (Put, Update or Delete), from its state before and after: the larger size counts. */
function txWrite(kind: Kind, before: Item | undefined, after: Item | undefined): Cost {
  if (!before && !after) return NOTHING;
  return write(Math.max(itemSize(before), itemSize(after)), { transaction: true, indexes: indexChanges(kind, before, after) });
}

/** Each audit entry the operation wrote: a transactional put with its four list entries. */
const auditWrites = (entries: Item[]): Cost => sum(...entries.map((entry) => txWrite('audit', undefined, entry)));
/** Reading the service counters: one Query of the STATS partition. */
const statsRead = (shards: Item[]) => query(shards, false);

const QUOTAS = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;

/**
 * The counter items a set of user changes must write in its transaction, by the data model (lib/users/counters.ts
 * describes it): each department whose counters change (quota usage, members per cell and per login month); one stats
 * shard if any service-wide cell counter changes; one login-day item per membership and month whose days change;
 * one last-name item per membership and name whose count changes. `reserved`: a department whose quota usage a bulk
 * move reserved beforehand (only its list counters move with the users).
 */
function counterChanges(moves: Array<{ before?: Item; after?: Item }>, reserved?: string) {
  const departments = new Map<string, Record<string, number>>();
  const cells: Record<string, number> = {};
  const logins: Record<string, number> = {};
  const names: Record<string, number> = {};
  const bump = (record: Record<string, number>, key: string, n: number) => (record[key] = (record[key] ?? 0) + n);
  const count = (user: Item, sign: number) => {
    const membership = user.department_id ? 'IN' : 'OUT';
    const login = (user.last_login as string | null) ?? null;
    const cell = `${String(user.account_role)}.${user.activated ? 1 : 0}${login ? 1 : 0}`;
    if (user.department_id) {
      const id = String(user.department_id);
      const counters = departments.get(id) ?? {};
      departments.set(id, counters);
      if (id !== reserved) {
        const usage = { users: 1, activated_users: user.activated ? 1 : 0, admins: 0, managers: 0, guests: 0 };
        if (user.account_role !== 'member') usage[`${String(user.account_role)}s` as 'admins'] = 1;
        for (const quota of QUOTAS) bump(counters, `usage_${quota}`, sign * usage[quota]);
      }
      bump(counters, `C#${cell}`, sign);
      if (login) bump(counters, `L#${login.slice(0, 7)}`, sign);
    }
    bump(cells, `${membership}#${cell}`, sign);
    if (login) bump(logins, `${membership}|${login.slice(0, 7)}|${login.slice(8, 10)}`, sign);
    // Last names are counted per membership and, for a member, per department too (lib/users/counters.ts).
    bump(names, `${membership}|${String(user.last_name).toLowerCase()}`, sign);
    if (user.department_id) bump(names, `D:${String(user.department_id)}|${String(user.last_name).toLowerCase()}`, sign);
  };
  for (const { before, after } of moves) {
    if (before) count(before, -1);
    if (after) count(after, 1);
  }
  const changed = (record: Record<string, number>) => Object.entries(record).filter(([, n]) => n !== 0);
  return {
    departments: [...departments].filter(([, counters]) => changed(counters).length > 0).map(([id]) => id),
    /** Stats shard, login-day and last-name items (per membership and per department). */
    shared:
      (changed(cells).length > 0 ? 1 : 0) +
      new Set(changed(logins).map(([key]) => key.split('|').slice(0, 2).join('|'))).size +
      changed(names).length,
  };
}

// ---------------------------------------------------------------------------

/** What the minimum of an operation is worked out from. */
interface MinContext {
  /** The operation's start (its audit entries are those written since). */
  since: string;
  result: unknown;
  /** The watched items as they stood just before the call and just after it. */
  before: (key: Key) => Item | undefined;
  after: (key: Key) => Item | undefined;
}

interface Op {
  operation: string;
  /** Unmetered preparation. */
  setup?: () => Promise<void>;
  /** Items whose state before and after the call the minimum needs (read around it, unmetered). */
  watch?: () => Key[];
  /** The request, through the route's handler. */
  run: () => Promise<unknown>;
  /** The minimum, from the items involved. */
  min: (context: MinContext) => Promise<Cost>;
  /** Worked out after the minimum (it may use what that found). */
  note?: string | (() => string);
  /** Per-step figures of a row made of several requests (the SCIM pages), for results.json. */
  steps?: () => unknown[];
}

export interface CapacityContext {
  client: Doc;
  table: string;
  /** Users loaded for the SCIM startIndex walk (3,000; the quick run 1,000): a multiple of 200. */
  scimPageUsers?: number;
}

const keyOf = (key: Key) => `${key.pk}|${key.sk}`;

export async function measureCapacity({ client, table, scimPageUsers = 3_000 }: CapacityContext): Promise<CapacityResult[]> {
  const sizer = new Sizer(client, table);
  progress('capacity: loading its dataset (5 departments of 60 users, 60 users in none, 4 groups)');
  const data: Dataset = await loadDataset(client, table, {
    prefix: 'c',
    departments: 5,
    usersPerDepartment: 60,
    unassignedUsers: 60,
    groups: 4,
    usersPerGroup: 10,
  });
  const [d0, d1, d2, d3, d4] = data.departments;
  const newUser = 'cap-user';
  const newDepartment = 'cap-dept';
  const newGroup = 'cap-group';
  const e3Forty = data.members.get(d2)!.slice(0, 40);
  let e3Hundred: string[] = [];
  const e5Ten = () => data.members.get(d4)!.slice(0, 10);
  const g3Users = data.members.get(d0)!.slice(0, 10);
  const g4User = data.members.get(d1)![0];
  let reportId = '';
  let groupGeneration = '';
  let groupMembers: string[] = [];
  const groupRef = () => ({ id: newGroup, generation: groupGeneration });

  // SCIM rows. A member of d4 found by its user name; a new user; an activated member of d0 deactivated (not one G3
  // takes); a member added to a dataset group (a user in none: groups take the first users of d0).
  const scimLookup = data.members.get(d4)!.at(-1)!;
  const scimLookupDepartment = d4;
  const SCIM_NEW = { userName: 'Scim.Provisioned@Example.com', email: 'scim.provisioned@example.com', externalId: 'entra-0f3c9a7e' };
  let scimNewId = '';
  let scimDepartmentName = '';
  const scimDeactivate = data.users.find((u) => u.department_id === d0 && u.activated && !g3Users.includes(u.id) && u.id !== g4User)!.id;
  const scimGroup = { id: data.groups[2].id, generation: data.groups[2].generation };
  const scimMember = data.unassigned[10];
  if (data.groups.some((g) => g.members.includes(scimMember))) throw new Error(`SCIM group member: ${scimMember} is in a group already`);
  // startIndex pages: an identity provider's import walks every user, a page after the other.
  const SCIM_PAGE = 100;
  const SCIM_PAGE_USERS = scimPageUsers;
  const SCIM_PAGER = 'bench-pages';
  let scimPages: Array<{ startIndex: number; ids: string[]; more: boolean; total: number; rcu: number; wcu: number }> = [];
  const scimPageMins: Cost[] = [];
  const pageOf = (result: { body?: string }) => {
    const body = JSON.parse(result.body!) as {
      totalResults: number;
      startIndex: number;
      itemsPerPage: number;
      Resources: Array<{ id: string }>;
    };
    return {
      ids: body.Resources.map((r) => r.id),
      more: body.startIndex - 1 + body.itemsPerPage < body.totalResults,
      total: body.totalResults,
    };
  };
  /** Where lib/scim/users.ts keeps a list's cursors: `SCIMPAGE#<sha256(client|users|filter)>`, per next startIndex. */
  const scimPageKey = (startIndex: number): Key => ({
    pk: `SCIMPAGE#${createHash('sha256').update(`scim:${SCIM_PAGER}|users|`).digest('base64url')}`,
    sk: String(startIndex),
  });
  /**
   * One startIndex page of every user (no filter): members of a department by name, then the others by name
   * (USERS#IN, then USERS#OUT of byName: lib/lists/users/index.ts, membershipFirst). From the partition the page
   * starts in, its entries after the page before; where the members end within the page (or at its end, with
   * more to come), the first entries of the others; and one entry past the page where another page follows (to
   * know that it does): one eventually consistent Query per partition read. Then the counters (totalResults); each
   * department of its users for the enterprise department name (eventually consistent, each item its own unit);
   * after the first page, the kept cursor (one consistent GetItem); and, unless it is the last page, the put of
   * the next page's cursor (a small item: 1 WCU).
   */
  const scimPageMin = async (i: number): Promise<Cost> => {
    const page = scimPages[i];
    const previous = i > 0 ? await sizer.item(userKey(scimPages[i - 1].ids.at(-1)!)) : undefined;
    const after = previous === undefined ? undefined : String(previous.gsi1sk);
    const users = await sizer.items(page.ids.map(userKey));
    const inCount = users.filter((u) => u.department_id).length;
    const outCount = users.length - inCount;
    const startsWithOthers = previous !== undefined && !previous.department_id;
    const members = startsWithOthers ? [] : await sizer.indexAfter(usersPartition('IN'), after, inCount + 1);
    const membersGoOn = members.length > inCount;
    const reads: Cost[] = [];
    if (!startsWithOthers) reads.push(query(members.slice(0, inCount + (membersGoOn ? 1 : 0)), false));
    if (!membersGoOn) {
      const others = await sizer.indexAfter(usersPartition('OUT'), startsWithOthers ? after : undefined, outCount + 1);
      reads.push(query(others.slice(0, outCount + (page.more ? 1 : 0)), false));
    }
    const departments = [...new Set(users.flatMap((u) => (u.department_id ? [String(u.department_id)] : [])))];
    const cost = sum(
      ...reads,
      statsRead(await sizer.partition(STATS_PARTITION)),
      ...(await sizer.items(departments.map(departmentKey))).map((d) => get(d, false)),
      i > 0 ? get(await sizer.item(scimPageKey(page.startIndex))) : NOTHING,
      page.more ? write(await sizer.item(scimPageKey(page.startIndex + page.ids.length)), { transaction: false }) : NOTHING,
    );
    scimPageMins[i] = cost;
    return cost;
  };

  /** Every counter item is well under 1 KB; each written one costs what the largest of them costs. */
  const counterItem = async (): Promise<Cost> => {
    const partitions = ['STATS', 'LOGINS#USERS#IN', 'LOGINS#USERS#OUT', 'NAMES#USERS#IN', 'NAMES#USERS#OUT'];
    const items = (await Promise.all(partitions.map((pk) => sizer.partition(pk)))).flat();
    return tx(Math.max(...items.map(itemSize)));
  };
  const counters = async (n: number) => {
    const one = await counterItem();
    return { rcu: 0, wcu: n * one.wcu };
  };

  /** The keys of a user change: the user item, its department copy, the departments it may touch. */
  const userKeys = (ids: string[], departments: string[] = []) => [
    ...ids.flatMap((id) => [userKey(id), departmentCopyKey(id)]),
    ...departments.map(departmentKey),
  ];

  /**
   * The writes of users changing, one transaction: each user item and its department copy (put while a member,
   * deleted when it leaves), every department whose counters move, the shared counters.
   */
  const userChanges = async ({ before, after }: MinContext, ids: string[]): Promise<Cost> => {
    const moves = ids.map((id) => ({ before: before(userKey(id)), after: after(userKey(id)) }));
    const changed = counterChanges(moves);
    return sum(
      ...ids.flatMap((id) => [
        txWrite('user', before(userKey(id)), after(userKey(id))),
        txWrite('departmentCopy', before(departmentCopyKey(id)), after(departmentCopyKey(id))),
      ]),
      ...changed.departments.map((id) => txWrite('department', before(departmentKey(id)), after(departmentKey(id)))),
      await counters(changed.shared),
    );
  };

  /**
   * A department move of `ids` into `target` (E3): read the target (its limits) and every user; then one transaction
   * when the writes fit in one (each user and its copy, every department whose counters move, the shared counters —
   * stats shard, login days, last names per membership and per department —, the audit entry), else the bulk protocol.
   */
  const moveMin = async (c: MinContext, ids: string[], target: string): Promise<Cost> => {
    const changed = counterChanges(ids.map((id) => ({ before: c.before(userKey(id)), after: c.after(userKey(id)) })));
    const items = ids.length * 2 + changed.departments.length + changed.shared + 1;
    if (ids.length * 2 >= MAX_TRANSACTION_ITEMS || items > MAX_TRANSACTION_ITEMS) return bulkMoveMin(c, ids, target);
    return sum(
      get(c.before(departmentKey(target))),
      ...ids.map((id) => get(c.before(userKey(id)))),
      await userChanges(c, ids),
      auditWrites(await sizer.auditSince(c.since)),
    );
  };

  /**
   * The bulk protocol of bulk-move/. Reads as for one transaction. Parts: as many users as an apply holds (2 items a
   * user + its counter items + part + header <= 100). Writes: reserve (the header put, in the BULK queue of byName; the
   * target's usage, its entries rewritten); per part a hold (header check — on the last, its state update and the
   * audit entry —, the part item, bulk_lock set on each user: six entries rewritten each); per part an apply (part
   * deleted, header update, each user rewritten into the target (six entries) and its copy moved (six keys), the
   * source's counters and the target's list counters, the shared counters); finish (header deleted).
   */
  const bulkMoveMin = async (c: MinContext, ids: string[], target: string): Promise<Cost> => {
    const users = ids.map((id) => c.before(userKey(id))!);
    const moves = (ids: string[]) => ids.map((id) => ({ before: c.before(userKey(id)), after: c.after(userKey(id)) }));
    const parts: string[][] = [];
    for (const id of ids) {
      const last = parts[parts.length - 1];
      const candidate = last ? [...last, id] : [id];
      const changed = counterChanges(moves(candidate), target);
      if (last && candidate.length * 2 + changed.departments.length + changed.shared + 2 <= MAX_TRANSACTION_ITEMS) last.push(id);
      else parts.push([id]);
    }
    const op = 'x'.repeat(16);
    const usage = (ids: string[]) => {
      const members = ids.map((id) => c.before(userKey(id))!);
      const role = (r: string) => members.filter((u) => u.account_role === r).length;
      return {
        users: ids.length,
        activated_users: members.filter((u) => u.activated).length,
        admins: role('admin'),
        managers: role('manager'),
        guests: role('guest'),
      };
    };
    const usageFields = (prefix: string, ids: string[]) =>
      Object.fromEntries(Object.entries(usage(ids)).map(([q, n]) => [`${prefix}${q}`, n]));
    const header: Item = {
      ...bulkHeaderKey(op),
      type: 'bulk_move',
      id: op,
      state: 'preparing',
      operation: 'E3',
      target: target,
      at: c.since,
      lease_until: c.since,
      parts: parts.length,
      parts_left: parts.length,
      ...usageFields('reserved_', ids),
      gsi1pk: 'BULK',
      gsi1sk: `${c.since}#${op}`,
    };
    const partItem = (ids: string[]): Item => ({
      pk: `BULK#${op}`,
      sk: 'PART#0000',
      type: 'bulk_part',
      user_ids: ids,
      ...usageFields('usage_', ids),
    });
    const held = (id: string): Item => ({ ...c.before(userKey(id)), bulk_lock: op });
    const audit = await sizer.auditSince(c.since);
    const counterItemCost = await counterItem();
    const reserve = sum(
      txWrite('queued', undefined, header),
      txWrite('department', c.before(departmentKey(target)), c.after(departmentKey(target))),
    );
    const holds = parts.map((ids, index) =>
      sum(
        index === parts.length - 1 ? txWrite('queued', header, { ...header, state: 'applying' }) : tx(header),
        tx(partItem(ids)),
        ...ids.map((id) => txWrite('user', c.before(userKey(id)), held(id))),
      ),
    );
    const applies = parts.map((ids) => {
      const changed = counterChanges(moves(ids), target);
      return sum(
        tx(partItem(ids)),
        txWrite('queued', header, { ...header, parts_left: 0 }),
        ...ids.flatMap((id) => [
          txWrite('user', held(id), c.after(userKey(id))),
          txWrite('departmentCopy', c.before(departmentCopyKey(id)), c.after(departmentCopyKey(id))),
        ]),
        ...changed.departments.map((id) => txWrite('department', c.before(departmentKey(id)), c.after(departmentKey(id)))),
        { rcu: 0, wcu: changed.shared * counterItemCost.wcu },
      );
    });
    return sum(
      get(c.before(departmentKey(target))),
      ...users.map((u) => get(u)),
      reserve,
      ...holds,
      auditWrites(audit),
      ...applies,
      txWrite('queued', header, undefined),
    );
  };

  const ops: Op[] = [
    {
      operation: 'createUser',
      watch: () => [userKey(newUser), emailClaimKey(`${newUser}@example.com`), userNameClaimKey(`${newUser}@example.com`)],
      run: () =>
        invoke('createUser', { body: { id: newUser, email: `${newUser}@example.com`, last_name: 'Capacity', first_name: 'Bench' } }),
      // A new user in no department, never logged in: its item (six list entries put), its e-mail claim, its user-name
      // claim (USERNAME#<folded>: the user name defaults to the e-mail, and user names are unique since SCIM: +2 WCU),
      // the counters it joins (the stats shard: cell USERS#OUT#member.00; last name "capacity" of OUT), the audit entry.
      min: async (c) =>
        sum(
          await userChanges(c, [newUser]),
          txWrite('plain', undefined, c.after(emailClaimKey(`${newUser}@example.com`))),
          txWrite('plain', undefined, c.after(userNameClaimKey(`${newUser}@example.com`))),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'getUser',
      run: () => invoke('getUser', { params: { user_id: newUser } }),
      // One strongly consistent read of the user.
      min: async () => get(await sizer.item(userKey(newUser))),
    },
    {
      operation: 'updateUser',
      watch: () => userKeys([newUser]),
      run: () => invoke('updateUser', { params: { user_id: newUser }, body: { first_name: 'Changed' } }),
      // Read the user (the version for the condition); rewrite it: no list key moves, but all six entries hold the
      // first name (ALL projection); no counter moves (same cell, login and last name); no claim (e-mail, user name and
      // external id unchanged: a claim is written only when its value changes); audit.
      min: async (c) => sum(get(c.before(userKey(newUser))), await userChanges(c, [newUser]), auditWrites(await sizer.auditSince(c.since))),
    },
    {
      operation: 'E2',
      watch: () => userKeys([newUser], [d0]),
      run: () => invoke('E2', { params: { department_id: d0, user_id: newUser } }),
      // Into a department from none: read the user; rewrite it (all six list keys move, USERS#OUT -> USERS#IN: 2 each);
      // put its department copy (six entries); the department's counters (usage, cell; its two entries rewritten);
      // the stats shard (cell OUT -> IN); last names OUT and IN (never logged in: no login-day item); audit.
      min: async (c) => sum(get(c.before(userKey(newUser))), await userChanges(c, [newUser]), auditWrites(await sizer.auditSince(c.since))),
    },
    {
      operation: 'E2 (move)',
      watch: () => userKeys([newUser], [d0, d1]),
      run: () => invoke('E2', { params: { department_id: d1, user_id: newUser } }),
      // Between departments: read; rewrite the user (no key moves: six entries rewritten); its copy (all six keys move
      // from DEPT#d0 to DEPT#d1); both departments' counters; no shared counter (still IN, same cell and name); audit.
      min: async (c) => sum(get(c.before(userKey(newUser))), await userChanges(c, [newUser]), auditWrites(await sizer.auditSince(c.since))),
    },
    {
      operation: 'E4',
      watch: () => userKeys([newUser], [d1]),
      run: () => invoke('E4', { params: { department_id: d1, user_id: newUser } }),
      // Out of its department: read; rewrite the user (six keys move IN -> OUT); delete its copy (six entries); the
      // department's counters; the stats shard; last names IN and OUT; audit.
      min: async (c) => sum(get(c.before(userKey(newUser))), await userChanges(c, [newUser]), auditWrites(await sizer.auditSince(c.since))),
    },
    {
      operation: 'E6',
      run: () => invoke('E6', { params: { department_id: d0 } }),
      // One read of the department: limits and counters are on it.
      min: async () => get(await sizer.item(departmentKey(d0))),
    },
    {
      operation: 'E7',
      watch: () => [departmentKey(d0)],
      run: () => invoke('E7', { params: { department_id: d0 }, body: { name: 'users', limit: 1000 } }),
      // Set the limit (the department's two entries rewritten), audit; then read the department back for the answer's
      // usage (a transaction returns no values).
      min: async (c) =>
        sum(
          txWrite('department', c.before(departmentKey(d0)), c.after(departmentKey(d0))),
          auditWrites(await sizer.auditSince(c.since)),
          get(c.after(departmentKey(d0))),
        ),
    },
    {
      operation: 'createDepartment',
      watch: () => [departmentKey(newDepartment)],
      run: () => invoke('createDepartment', { body: { id: newDepartment, name: 'Capacity' } }),
      // The department (two entries put), the stats shard (departments), audit.
      min: async (c) =>
        sum(
          txWrite('department', undefined, c.after(departmentKey(newDepartment))),
          await counters(1),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'getDepartment',
      run: () => invoke('getDepartment', { params: { department_id: newDepartment } }),
      min: async () => get(await sizer.item(departmentKey(newDepartment))),
    },
    {
      operation: 'updateDepartment',
      watch: () => [departmentKey(newDepartment)],
      run: () => invoke('updateDepartment', { params: { department_id: newDepartment }, body: { name: 'Capacity renamed' } }),
      // Rename (the byName key moves: 2; the byTime entry rewritten), audit, read back for the answer.
      min: async (c) =>
        sum(
          txWrite('department', c.before(departmentKey(newDepartment)), c.after(departmentKey(newDepartment))),
          auditWrites(await sizer.auditSince(c.since)),
          get(c.after(departmentKey(newDepartment))),
        ),
    },
    {
      operation: 'E8',
      watch: () => [departmentKey(newDepartment)],
      run: () => invoke('E8', { params: { department_id: newDepartment } }),
      // Delete the empty department (its two entries), the stats shard, audit. No read: the delete's condition checks.
      min: async (c) =>
        sum(
          txWrite('department', c.before(departmentKey(newDepartment)), undefined),
          await counters(1),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'listDepartments',
      run: () => invoke('listDepartments'),
      // One page of the DEPTS partition of byName (the page and one more, to know whether another follows), and the
      // counters for the total.
      min: async () =>
        sum(query(await sizer.indexPage(DEPARTMENTS_PARTITION, 101), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'E1',
      // A container reads the lists' state (META / LISTS, lib/store/meta.ts) on its first list request only, and keeps
      // it once the table is ready: a request of a warm container does not (0.5 RCU once per container).
      setup: async () => void (await invoke('E1', { query: { count: '1' } })),
      run: () => invoke('E1', { query: { count: '100' } }),
      // A page of 100 from USERS#IN of byName and the entry after it (next_cursor is null on the last page only), and
      // the counters for the total.
      min: async () =>
        sum(query(await sizer.indexPage(usersPartition('IN'), 101), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'listUsers',
      run: () => invoke('listUsers', { query: { count: '100' } }),
      // All users: USERS#IN and USERS#OUT merged by name. Needed: from each partition the entries that make the page,
      // plus one look-ahead entry each to know the merge is right; and the counters.
      min: async ({ result }) => {
        const page = JSON.parse((result as { body: string }).body) as { users: Array<{ department_id: string | null }> };
        const fromIn = page.users.filter((u) => u.department_id).length;
        const fromOut = page.users.length - fromIn;
        return sum(
          query(await sizer.indexPage(usersPartition('IN'), fromIn + 1), false),
          query(await sizer.indexPage(usersPartition('OUT'), fromOut + 1), false),
          statsRead(await sizer.partition(STATS_PARTITION)),
        );
      },
      note: 'each partition is read for its counted share of the page plus a margin (lib/db/query.ts firstReads): a few entries more than the page takes',
    },
    {
      operation: 'E3 (40 users)',
      watch: () => userKeys(e3Forty, [d2, d3]),
      run: () => invoke('E3', { params: { department_id: d3 }, body: { user_ids: e3Forty } }),
      // Read the target (its limits bound the addition) and every user (versions, usage). One transaction when the move
      // fits: per user the user rewritten (six entries) and its copy moved (six keys: 12); the target's counters
      // (reservation and cells in one update) and the source's; the last-name counters of both departments (per
      // department since the list work: 10 names × 2 here); the audit entry. 40 users with those counters are 103 items,
      // more than a transaction holds, so the data model needs the bulk protocol (see E3 of 100) — moveMin decides.
      min: (c) => moveMin(c, e3Forty, d3),
      note: 'compare per user with E2 (move): the same user and copy rewrite',
    },
    {
      operation: 'E3 (100 users)',
      setup: async () => {
        e3Hundred = (await sizer.indexPage(`DEPT#${d3}`, 100, false, INDEXES.byName)).map((item) => String(item.id));
        if (e3Hundred.length !== 100) throw new Error(`E3 (100 users): ${d3} holds ${e3Hundred.length} users`);
      },
      watch: () => userKeys(e3Hundred, [d3, d4]),
      run: () => invoke('E3', { params: { department_id: d4 }, body: { user_ids: e3Hundred } }),
      min: (c) => moveMin(c, e3Hundred, d4),
      note: 'protocol: every user is written twice (hold, apply), each time with its six list entries',
    },
    {
      operation: 'E5 (10 users)',
      watch: () => userKeys(e5Ten(), [d4]),
      run: () => invoke('E5', { params: { department_id: d4 }, body: { user_ids: e5Ten() } }),
      // Read the users (versions, membership); one transaction: each user rewritten out of the department (six keys move
      // IN -> OUT) and its copy deleted (six entries); the department's counters; the stats shard; a login-day item per
      // membership and month, a last-name item per membership and name; audit. The department itself need not be
      // read: only the 404 of a missing department needs it (E4 reads it on that path only).
      min: async (c) =>
        sum(
          ...e5Ten().map((id) => get(c.before(userKey(id)))),
          await userChanges(c, e5Ten()),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'G3 (10 users)',
      run: async () => {
        const result = await invoke('G3', { body: { id: newGroup, name: 'Capacity group', user_ids: g3Users } });
        groupGeneration = String((await sizer.item(groupKey(newGroup))).generation);
        return result;
      },
      // Read the users (404s, the answer); one transaction: the group (two entries put), its name claim, the stats
      // shard, audit, and per user the two membership items and a ConditionCheck on the user (exists, not being deleted).
      min: async (c) => {
        const users = await sizer.items(g3Users.map(userKey));
        const memberships = await sizer.items(g3Users.flatMap((id) => [groupMemberKey(groupRef(), id), userGroupKey(id, groupRef())]));
        return sum(
          ...users.map((u) => get(u)),
          txWrite('group', undefined, await sizer.item(groupKey(newGroup))),
          tx(await sizer.item(groupNameKey('Capacity group'))),
          await counters(1),
          auditWrites(await sizer.auditSince(c.since)),
          ...users.map((u) => tx(u)),
          ...memberships.map((m) => tx(m)),
        );
      },
    },
    {
      operation: 'G1 (10 users)',
      run: () => invoke('G1', { params: { group_id: newGroup } }),
      // The group (its generation names the member partition), the member partition (one consistent Query), the users.
      min: async () => {
        const members = await sizer.partition(membersPartition(groupRef()));
        const users = await sizer.items(members.map((m) => userKey(String(m.user_id))));
        return sum(get(await sizer.item(groupKey(newGroup))), query(members, true), ...users.map((u) => get(u)));
      },
    },
    {
      operation: 'G2',
      run: () => invoke('G2'),
      // One page of the GROUPS partition of byName (and the entry after it), and the counters for the total.
      min: async () => sum(query(await sizer.indexPage(GROUPS_PARTITION, 101), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'G4',
      watch: () => [groupKey(newGroup), groupMemberKey(groupRef(), g4User), userGroupKey(g4User, groupRef())],
      run: () => invoke('G4', { params: { group_id: newGroup, user_id: g4User } }),
      // Read the group (generation, state) and the user (the answer). Whether the user is already a member need not be
      // read: the member put is conditional on its absence. One transaction: the group's count (its two entries
      // rewritten), a ConditionCheck on the user (exists, not being deleted), the two membership items, audit.
      min: async (c) =>
        sum(
          get(c.before(groupKey(newGroup))),
          get(await sizer.item(userKey(g4User))),
          txWrite('group', c.before(groupKey(newGroup)), c.after(groupKey(newGroup))),
          tx(await sizer.item(userKey(g4User))),
          tx(c.after(groupMemberKey(groupRef(), g4User))!),
          tx(c.after(userGroupKey(g4User, groupRef()))!),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'G5',
      watch: () => [groupKey(newGroup), groupMemberKey(groupRef(), g4User), userGroupKey(g4User, groupRef())],
      run: () => invoke('G5', { params: { group_id: newGroup, user_id: g4User } }),
      // Read the group (generation); one transaction: its count (two entries rewritten), both membership items deleted
      // (the group side conditional on existing: that condition answers "not a member"), audit.
      min: async (c) =>
        sum(
          get(c.before(groupKey(newGroup))),
          txWrite('group', c.before(groupKey(newGroup)), c.after(groupKey(newGroup))),
          tx(c.before(groupMemberKey(groupRef(), g4User))!),
          tx(c.before(userGroupKey(g4User, groupRef()))!),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'G6 (10 users)',
      setup: async () => {
        const members = await sizer.partition(membersPartition(groupRef()));
        groupMembers = members.map((m) => String(m.user_id));
      },
      watch: () => [
        groupKey(newGroup),
        groupNameKey('Capacity group'),
        ...groupMembers.flatMap((id) => [groupMemberKey(groupRef(), id), userGroupKey(id, groupRef())]),
      ],
      run: () => invoke('G6', { params: { group_id: newGroup } }),
      // Read the group and its member partition; one transaction: the group deleted (both entries) and its name claim,
      // the stats shard, audit, both items of every membership deleted.
      min: async (c) => {
        const memberships = groupMembers.flatMap((id) => [
          c.before(groupMemberKey(groupRef(), id))!,
          c.before(userGroupKey(id, groupRef()))!,
        ]);
        return sum(
          get(c.before(groupKey(newGroup))),
          query(
            memberships.filter((m) => m.type === 'group-member'),
            true,
          ),
          txWrite('group', c.before(groupKey(newGroup)), undefined),
          tx(c.before(groupNameKey('Capacity group'))!),
          ...memberships.map((m) => tx(m)),
          await counters(1),
          auditWrites(await sizer.auditSince(c.since)),
        );
      },
    },
    {
      operation: 'deleteUser',
      watch: () => [...userKeys([newUser]), emailClaimKey(`${newUser}@example.com`), userNameClaimKey(`${newUser}@example.com`)],
      run: () => invoke('deleteUser', { params: { user_id: newUser } }),
      // Needed: the user as it stands (version, department, e-mail), the lock that stops group additions (an update of
      // the user item, so its six entries are rewritten: ALL projection) and, after the lock, its memberships. The
      // lock can hand back the user (ReturnValues ALL_OLD), so one read suffices: a consistent Query of partition
      // USER#<id> after the lock. One transaction: the user deleted (six entries; its copy too if it is a member), its
      // e-mail claim and its user-name claim (released with the user since user names are claimed: +2 WCU), the
      // counters it leaves (stats shard, last name), audit.
      min: async (c) => {
        const user = c.before(userKey(newUser))!;
        const locked = { ...user, group_lock: c.since };
        return sum(
          query([user, ...(c.before(departmentCopyKey(newUser)) ? [c.before(departmentCopyKey(newUser))!] : [])], true),
          write(locked, { transaction: false, indexes: indexChanges('user', user, locked) }),
          await userChanges({ ...c, before: (key) => (keyOf(key) === keyOf(userKey(newUser)) ? locked : c.before(key)) }, [newUser]),
          tx(c.before(emailClaimKey(`${newUser}@example.com`))!),
          tx(c.before(userNameClaimKey(`${newUser}@example.com`))!),
          auditWrites(await sizer.auditSince(c.since)),
        );
      },
      note: 'the lock can return the user (ALL_OLD) and one Query read the memberships: 1 read, not GetItem + Query',
    },
    {
      operation: 'E9',
      run: async () => {
        const result = await invoke('E9');
        reportId = JSON.parse(result.body!).id;
        return result;
      },
      // The job item (queued in REPORTS#PENDING of byName) and the audit entry, in one transaction.
      min: async (c) =>
        sum(txWrite('queued', undefined, await sizer.item(reportKey(reportId))), auditWrites(await sizer.auditSince(c.since))),
    },
    {
      operation: 'getDepartmentsReport',
      setup: async () => {
        const { runReport } = await import('../lib/reports/worker');
        await runReport(reportId);
      },
      run: () => invoke('getDepartmentsReport', { params: { report_id: reportId } }),
      // One read of the job; the link is signed locally.
      min: async () => get(await sizer.item(reportKey(reportId))),
    },
    {
      operation: 'listAudit',
      run: () => invoke('listAudit', { query: { count: '100' } }),
      // The newest 100 entries of the AUDIT partition and the one after them (next_cursor); the trail is listed by
      // cursor only, with no total, so nothing else.
      min: async () => query(await sizer.indexPage(AUDIT_PARTITION, 101, true), false),
    },
    // --- SCIM 2.0: the requests identity providers send, through their handlers, as the SCIM authorizer
    // lets them through (bench/support/lambda.ts: the token's id in the authorizer context; the authorizer's own read
    // is cached by API Gateway per token and is not part of a route's cost).
    {
      operation: 'SCIM userName eq',
      run: async () => {
        const result = await invoke('scimListUsers', { query: { filter: `userName eq "${scimLookup.toUpperCase()}@EXAMPLE.COM"` } });
        const total = (JSON.parse(result.body!) as { totalResults: number }).totalResults;
        if (total !== 1) throw new Error(`SCIM userName eq: ${total} users found, not 1`);
        return result;
      },
      // A key look-up: the user-name claim (USERNAME#<folded>; eventually consistent, as the look-up reads it), the user
      // it names (strongly consistent, as every read of a user), and its department's item for the enterprise
      // extension's department name (eventually consistent, as names are read for answers). Whatever the number of users.
      min: async () =>
        sum(
          get(await sizer.item(userNameClaimKey(`${scimLookup}@example.com`)), false),
          get(await sizer.item(userKey(scimLookup))),
          get(await sizer.item(departmentKey(scimLookupDepartment)), false),
        ),
    },
    {
      operation: 'SCIM create user (department by name)',
      setup: async () => {
        scimDepartmentName = String((await sizer.item(departmentKey(d2))).name);
      },
      watch: () => [
        departmentKey(d2),
        emailClaimKey(SCIM_NEW.email),
        userNameClaimKey(SCIM_NEW.userName),
        claimKey('external_id', SCIM_NEW.externalId),
      ],
      run: async () => {
        const result = await invoke('scimCreateUser', {
          body: {
            schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
            userName: SCIM_NEW.userName,
            externalId: SCIM_NEW.externalId,
            name: { givenName: 'Scim', familyName: 'Provisioned' },
            emails: [{ value: SCIM_NEW.email, type: 'work', primary: true }],
            active: true,
            [ENTERPRISE_SCHEMA]: { department: scimDepartmentName.toLowerCase() },
          },
        });
        scimNewId = (JSON.parse(result.body!) as { id: string }).id;
        return result;
      },
      // The department reference resolved as the contract says: the department whose id it is (a key read that finds nothing
      // here: 0.5, eventually consistent), else the one whose name it is (one Query of its name key in DEPTS of byName:
      // 0.5). Nothing else need be read: the answer's department name is the one just found. One transaction: the user
      // (six list entries put) and its department copy (six), its e-mail, user-name and external-id claims, the
      // department's counters (usage under its quotas, cell; its entries rewritten), the stats shard (cell of IN), the
      // last-name counters of IN and of the department (activated, never logged in: no login-day item), audit.
      min: async (c) => {
        const mine = new Set([keyOf(userKey(scimNewId)), keyOf(departmentCopyKey(scimNewId))]);
        const created = new Map((await sizer.maybeItems([userKey(scimNewId), departmentCopyKey(scimNewId)])).map((item, i) => [i, item]));
        const context: MinContext = {
          ...c,
          before: (key) => (mine.has(keyOf(key)) ? undefined : c.before(key)),
          after: (key) =>
            keyOf(key) === keyOf(userKey(scimNewId))
              ? created.get(0)
              : keyOf(key) === keyOf(departmentCopyKey(scimNewId))
                ? created.get(1)
                : c.after(key),
        };
        return sum(
          get(undefined, false),
          query([c.before(departmentKey(d2))!], false),
          await userChanges(context, [scimNewId]),
          txWrite('plain', undefined, c.after(emailClaimKey(SCIM_NEW.email))),
          txWrite('plain', undefined, c.after(userNameClaimKey(SCIM_NEW.userName))),
          txWrite('plain', undefined, c.after(claimKey('external_id', SCIM_NEW.externalId))),
          auditWrites(await sizer.auditSince(c.since)),
        );
      },
      note: 'Entra/Okta body: userName, externalId, name, emails, active, enterprise department (a name, lower-cased)',
    },
    {
      operation: 'SCIM PATCH active false',
      watch: () => userKeys([scimDeactivate], [d0]),
      run: () =>
        invoke('scimPatchUser', {
          params: { user_id: scimDeactivate },
          // As Entra sends it by default: capitalised op, the boolean as a string.
          body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
        }),
      // Read the user (version, the audit's "from", the counters it leaves); the department's name only for the answer
      // (0.5, eventually consistent: an `active` operation needs no department). One transaction: the user rewritten (its
      // cell changes: the cell entries' keys move) and its copy likewise, the department's counters (activated_users,
      // cell), the stats shard (cell), audit; no claim and no last-name or login counter moves.
      min: async (c) =>
        sum(
          get(c.before(userKey(scimDeactivate))),
          get(c.before(departmentKey(d0)), false),
          await userChanges(c, [scimDeactivate]),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: 'SCIM PATCH group add member',
      watch: () => [groupKey(scimGroup.id), groupMemberKey(scimGroup, scimMember), userGroupKey(scimMember, scimGroup)],
      run: () =>
        invoke('scimPatchGroup', {
          params: { group_id: scimGroup.id },
          body: { schemas: [PATCH_SCHEMA], Operations: [{ op: 'Add', path: 'members', value: [{ value: scimMember }] }] },
        }),
      // As G4 without its answer: read the group (generation, version); whether the user is a member already need not be
      // read (the member put is conditional on its absence: a retried add that fails there is answered as done), and
      // the group need not be read back (204 with the ETag: the version the conditional write set). One transaction:
      // the group's count and version (its entries rewritten, the count entry moved), a ConditionCheck on the user
      // (exists, not being deleted), the membership items, audit.
      min: async (c) =>
        sum(
          get(c.before(groupKey(scimGroup.id))),
          txWrite('group', c.before(groupKey(scimGroup.id)), c.after(groupKey(scimGroup.id))),
          tx(await sizer.item(userKey(scimMember))),
          ...[groupMemberKey(scimGroup, scimMember), userGroupKey(scimMember, scimGroup)]
            .map((key) => c.after(key))
            .filter((item): item is Item => item !== undefined)
            .filter((item, i, all) => all.findIndex((other) => keyOf(other as Key) === keyOf(item as Key)) === i)
            .map((item) => tx(item)),
          auditWrites(await sizer.auditSince(c.since)),
        ),
    },
    {
      operation: `SCIM list page 1 (count=${SCIM_PAGE})`,
      setup: async () => {
        progress(`capacity: loading ${SCIM_PAGE_USERS.toLocaleString('en-US')} more users for the SCIM startIndex pages`);
        await loadDataset(client, table, {
          prefix: 's',
          departments: SCIM_PAGE_USERS / 200,
          usersPerDepartment: 180,
          unassignedUsers: SCIM_PAGE_USERS / 10,
          groups: 0,
          usersPerGroup: 0,
        });
        // A warm container: the lists' state read once (another client's list, so that no page of the walk is kept).
        await invoke('scimListUsers', { query: { count: '1' }, scimTokenId: 'bench-warm' });
      },
      run: async () => {
        const result = await invoke('scimListUsers', { query: { startIndex: '1', count: String(SCIM_PAGE) }, scimTokenId: SCIM_PAGER });
        scimPages = [{ startIndex: 1, ...pageOf(result), rcu: 0, wcu: 0 }];
        return result;
      },
      min: async () => scimPageMin(0),
      note: "reads its page (members of a department by name, then the others: USERS#IN, then USERS#OUT) and keeps the next page's cursor (lib/store/scim-pages.ts)",
    },
    {
      operation: `SCIM list pages 2+ (startIndex step ${SCIM_PAGE}, sum)`,
      run: async () => {
        let startIndex = 1 + SCIM_PAGE;
        let more = scimPages[0].more;
        while (more) {
          const before = capacitySoFar();
          const result = await invoke('scimListUsers', {
            query: { startIndex: String(startIndex), count: String(SCIM_PAGE) },
            scimTokenId: SCIM_PAGER,
          });
          const after = capacitySoFar();
          const page = pageOf(result);
          scimPages.push({ startIndex, ...page, rcu: after.rcu - before.rcu, wcu: after.wcu - before.wcu });
          more = page.more;
          startIndex += SCIM_PAGE;
        }
      },
      // Each page as the first, plus the read of the cursor the page before kept (one consistent GetItem of the
      // SCIMPAGE item): its own entries and one more, the counters (totalResults), its users' departments' names,
      // and the put of the next page's cursor (none after the last page).
      min: async () => {
        const costs: Cost[] = [];
        for (let i = 1; i < scimPages.length; i++) costs.push(await scimPageMin(i));
        return sum(...costs);
      },
      note: () => {
        const pages = scimPages.slice(1);
        const full = pages.map((p, i) => ({ ...p, min: scimPageMins[i + 1] })).filter((p) => p.ids.length === SCIM_PAGE);
        const range = (values: number[]) => `${round(Math.min(...values), 1)}–${round(Math.max(...values), 1)}`;
        return (
          `${pages.length} pages after the first (startIndex ${pages[0]?.startIndex}…${pages.at(-1)?.startIndex}) of ` +
          `${scimPages[0].total} users; a full page: RCU ${range(full.map((p) => p.rcu))} ` +
          `(min ${range(full.map((p) => p.min.rcu))}), WCU ${range(full.map((p) => p.wcu))}; each page in steps`
        );
      },
      steps: () =>
        scimPages.map((p, i) => ({
          start_index: p.startIndex,
          users: p.ids.length,
          rcu: i === 0 ? undefined : round(p.rcu, 1),
          wcu: i === 0 ? undefined : round(p.wcu, 1),
          min_rcu: round(scimPageMins[i]?.rcu ?? NaN, 1),
          min_wcu: round(scimPageMins[i]?.wcu ?? NaN, 1),
        })),
    },
    {
      operation: 'SCIM list page at depth (kept cursor)',
      run: () => {
        const deep = scimPages[scimPages.length - 2];
        return invoke('scimListUsers', {
          query: { startIndex: String(deep.startIndex), count: String(SCIM_PAGE) },
          scimTokenId: SCIM_PAGER,
        });
      },
      // The walk's last full page asked again (an identity provider's retry): the same minimum as in the walk.
      min: async () => scimPageMin(scimPages.length - 2),
    },
  ];

  meterCapacity();
  installCommandLog(sizer);
  const results: CapacityResult[] = [];
  for (const op of ops) {
    await op.setup?.();
    const keys = op.watch?.() ?? [];
    const beforeItems = new Map((await sizer.maybeItems(keys)).map((item, i) => [keyOf(keys[i]), item]));
    const since = new Date(Date.now() - 1).toISOString();
    log = [];
    charged = { wcu: 0, indexWcu: 0, reportedByLocal: 0 };
    if (process.env.BENCH_DEBUG_TX) console.error(`op ${op.operation}`);
    const { result, capacity } = await measure(op.run);
    const calls = summarize(log);
    const scans = log.filter((name) => name === 'ScanCommand').length;
    const afterItems = new Map((await sizer.maybeItems(keys)).map((item, i) => [keyOf(keys[i]), item]));
    const min = await op.min({
      since,
      result,
      before: (key) => beforeItems.get(keyOf(key)),
      after: (key) => afterItems.get(keyOf(key)),
    });
    const wcu = capacity.wcu - charged.reportedByLocal + charged.wcu;
    const r = (n: number) => round(n, 1);
    results.push({
      operation: op.operation,
      rcu: r(capacity.rcu),
      wcu: r(wcu),
      min_rcu: r(min.rcu),
      min_wcu: r(min.wcu),
      index_wcu: r(charged.indexWcu),
      wcu_reported_by_local: r(capacity.wcu),
      calls,
      scans,
      meets_goal: scans === 0 && capacity.rcu <= min.rcu + 1e-9 && wcu <= min.wcu + 1e-9,
      ...(op.note ? { note: typeof op.note === 'function' ? op.note() : op.note } : {}),
      ...(op.steps ? { steps: op.steps() } : {}),
    });
  }
  return results;
}
