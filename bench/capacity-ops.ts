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
 * that a write's own condition could replace, is not in the minimum. Where
 * the data model itself is what costs (e.g. the audit trail has no
 * counter), the note says so.
 *
 * Every command is also logged, so a Scan anywhere is flagged.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../lib/db/client';
import { auditList } from '../lib/store/audit';
import { headerKey as bulkHeaderKey } from '../lib/store/bulk-moves';
import { claimKey } from '../lib/store/claims';
import { departmentKey, departmentList } from '../lib/store/departments';
import { groupNameKey } from '../lib/store/group-names';
import { groupKey, groupList } from '../lib/store/groups';
import { groupMemberKey, membersPartition, userGroupKey } from '../lib/store/memberships';
import { reportKey } from '../lib/store/reports';
import { STATS_PARTITION } from '../lib/store/stats';
import { userKey, userLists } from '../lib/store/users';
import type { Key } from '../lib/db/table';
import { INDEXES, type IndexDefinition } from '../lib/db/table';
import { measure, meterCapacity } from './support/capacity';
import { loadDataset, type Dataset, type Doc } from './support/dataset';
import { invoke } from './support/lambda';
import { get, itemSize, query, sum, tx, write, writeUnits, type Cost, type Item } from './support/units';
import { progress, round } from './support/util';

/** Index partitions and keys, as the store modules define them. */
const AUDIT_PARTITION = auditList().partition;
const DEPARTMENTS_PARTITION = departmentList.byName().partition;
const GROUPS_PARTITION = groupList.byName().partition;
const usersPartition = (membership: 'IN' | 'OUT') => userLists.all({ membership }, 'name').partition;
const emailClaimKey = (email: string) => claimKey('email', email);

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
  return pk === undefined || sk === undefined ? undefined : `${String(pk)}\u0000${String(sk)}`;
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

function summarize(commands: string[]): string {
  const counts = new Map<string, number>();
  for (const command of commands) {
    const name = command.replace(/Command$/, '');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name}×${n}` : name)).join(' ');
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

/** Each audit entry the operation wrote: a transactional put with its byName index entry. */
const auditWrites = (entries: Item[]): Cost => sum(...entries.map((entry) => tx(entry, 'put')));
/** The service counters: one shard updated in the transaction (no index). A shard is well under 1 KB. */
const STATS = tx(300);
/** Reading the service counters: one Query of the STATS partition. */
const statsRead = (shards: Item[]) => query(shards, false);

// ---------------------------------------------------------------------------

interface Op {
  operation: string;
  /** Unmetered preparation. */
  setup?: () => Promise<void>;
  /** The request, through the route's handler. */
  run: () => Promise<unknown>;
  /** The minimum, from the items involved; `since` is the operation's start (for its audit entries). */
  min: (since: string, result: unknown) => Promise<Cost>;
  note?: string;
}

export interface CapacityContext {
  client: Doc;
  table: string;
}

export async function measureCapacity({ client, table }: CapacityContext): Promise<CapacityResult[]> {
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
  let before = new Map<string, Item>();
  const remember = async (keys: Key[]) => {
    before = new Map((await sizer.items(keys)).map((item) => [`${item.pk}|${item.sk}`, item]));
  };
  const was = (key: Key) => before.get(`${key.pk}|${key.sk}`)!;

  const ops: Op[] = [
    {
      operation: 'createUser',
      run: () =>
        invoke('createUser', { body: { id: newUser, email: `${newUser}@example.com`, last_name: 'Capacity', first_name: 'Bench' } }),
      // A new user: its item (byName and byRole entries; no department), its e-mail claim, a counter shard, the audit entry.
      min: async (since) =>
        sum(
          tx(await sizer.item(userKey(newUser)), 'put', 'put'),
          tx(await sizer.item(emailClaimKey(`${newUser}@example.com`))),
          STATS,
          auditWrites(await sizer.auditSince(since)),
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
      run: () => invoke('updateUser', { params: { user_id: newUser }, body: { first_name: 'Changed' } }),
      // Read the user (the version for the condition), rewrite it (both index entries change: ALL projection), audit.
      min: async (since) => {
        const user = await sizer.item(userKey(newUser));
        return sum(get(user), tx(user, 'put', 'put'), auditWrites(await sizer.auditSince(since)));
      },
    },
    {
      operation: 'E2',
      run: () => invoke('E2', { params: { department_id: d0, user_id: newUser } }),
      // Add a user in no department: read it; rewrite it (byName key OUT→IN, a new byDepartment entry, byRole key OUT→IN);
      // the department's counters (its byName entry changes); a counter shard; audit.
      min: async (since) => {
        const user = await sizer.item(userKey(newUser));
        return sum(
          get(user),
          tx(user, 'key', 'put', 'key'),
          tx(await sizer.item(departmentKey(d0)), 'put'),
          STATS,
          auditWrites(await sizer.auditSince(since)),
        );
      },
    },
    {
      operation: 'E2 (move)',
      run: () => invoke('E2', { params: { department_id: d1, user_id: newUser } }),
      // Move between departments: read; rewrite (byName changes in place, byDepartment key moves, byRole in place);
      // both departments' counters; no counter shard (still a member of some department); audit.
      min: async (since) => {
        const user = await sizer.item(userKey(newUser));
        return sum(
          get(user),
          tx(user, 'put', 'key', 'put'),
          tx(await sizer.item(departmentKey(d0)), 'put'),
          tx(await sizer.item(departmentKey(d1)), 'put'),
          auditWrites(await sizer.auditSince(since)),
        );
      },
    },
    {
      operation: 'E4',
      run: () => invoke('E4', { params: { department_id: d1, user_id: newUser } }),
      // Remove: read; rewrite (byName key IN→OUT, byDepartment entry deleted, byRole key); department counters; shard; audit.
      min: async (since) => {
        const user = await sizer.item(userKey(newUser));
        return sum(
          get(user),
          tx(user, 'key', 'delete', 'key'),
          tx(await sizer.item(departmentKey(d1)), 'put'),
          STATS,
          auditWrites(await sizer.auditSince(since)),
        );
      },
    },
    {
      operation: 'E6',
      run: () => invoke('E6', { params: { department_id: d0 } }),
      // One read of the department: limits and counters are on it.
      min: async () => get(await sizer.item(departmentKey(d0))),
    },
    {
      operation: 'E7',
      run: () => invoke('E7', { params: { department_id: d0 }, body: { name: 'users', limit: 1000 } }),
      // Set the limit (the department's byName entry changes), audit; then read the department back for the answer's usage
      // (a transaction returns no values).
      min: async (since) => {
        const department = await sizer.item(departmentKey(d0));
        return sum(tx(department, 'put'), auditWrites(await sizer.auditSince(since)), get(department));
      },
    },
    {
      operation: 'createDepartment',
      run: () => invoke('createDepartment', { body: { id: newDepartment, name: 'Capacity' } }),
      // The department (and its byName entry), a counter shard, audit.
      min: async (since) =>
        sum(tx(await sizer.item(departmentKey(newDepartment)), 'put'), STATS, auditWrites(await sizer.auditSince(since))),
    },
    {
      operation: 'getDepartment',
      run: () => invoke('getDepartment', { params: { department_id: newDepartment } }),
      min: async () => get(await sizer.item(departmentKey(newDepartment))),
    },
    {
      operation: 'updateDepartment',
      run: () => invoke('updateDepartment', { params: { department_id: newDepartment }, body: { name: 'Capacity renamed' } }),
      // Rename (byName key changes), audit, read back for the answer.
      min: async (since) => {
        const department = await sizer.item(departmentKey(newDepartment));
        return sum(tx(department, 'key'), auditWrites(await sizer.auditSince(since)), get(department));
      },
    },
    {
      operation: 'E8',
      setup: () => remember([departmentKey(newDepartment)]),
      run: () => invoke('E8', { params: { department_id: newDepartment } }),
      // Delete the empty department (and its byName entry), a counter shard, audit. No read: the delete's condition checks.
      min: async (since) => sum(tx(was(departmentKey(newDepartment)), 'delete'), STATS, auditWrites(await sizer.auditSince(since))),
    },
    {
      operation: 'listDepartments',
      run: () => invoke('listDepartments'),
      // One page of the DEPTS partition of byName, and the counters for the total.
      min: async () =>
        sum(query(await sizer.indexPage(DEPARTMENTS_PARTITION, 100), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'E1',
      run: () => invoke('E1', { query: { count: '100' } }),
      // A page of 100 from USERS#IN of byName, and the counters for the total.
      min: async () =>
        sum(query(await sizer.indexPage(usersPartition('IN'), 100), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'listUsers',
      run: () => invoke('listUsers', { query: { count: '100' } }),
      // All users: USERS#IN and USERS#OUT merged by name. Needed: from each partition the entries that make the page,
      // plus one look-ahead entry each to know the merge is right; and the counters.
      min: async (_since, result) => {
        const page = JSON.parse((result as { body: string }).body) as { users: Array<{ department_id: string | null }> };
        const fromIn = page.users.filter((u) => u.department_id).length;
        const fromOut = page.users.length - fromIn;
        return sum(
          query(await sizer.indexPage(usersPartition('IN'), fromIn + 1), false),
          query(await sizer.indexPage(usersPartition('OUT'), fromOut + 1), false),
          statsRead(await sizer.partition(STATS_PARTITION)),
        );
      },
    },
    {
      operation: 'E3 (40 users)',
      run: () => invoke('E3', { params: { department_id: d3 }, body: { user_ids: e3Forty } }),
      // Fits one transaction. Read the target (its limits bound the addition) and every user (versions, usage);
      // per user a rewrite (byName in place, byDepartment key, byRole in place); the target's and the source's
      // counters; no shard (members stay members); the audit entry (it lists the users, so it is several KB).
      min: async (since) => {
        const users = await sizer.items(e3Forty.map(userKey));
        const target = await sizer.item(departmentKey(d3));
        return sum(
          get(target),
          ...users.map((u) => get(u)),
          ...users.map((u) => tx(u, 'put', 'key', 'put')),
          tx(target, 'put'),
          tx(await sizer.item(departmentKey(d2)), 'put'),
          auditWrites(await sizer.auditSince(since)),
        );
      },
      note: 'compare per user with E2 (move): the same user rewrite',
    },
    {
      operation: 'E3 (100 users)',
      setup: async () => {
        e3Hundred = (await sizer.indexPage(`DEPT#${d3}`, 100, false, INDEXES.byName)).map((item) => String(item.id));
        if (e3Hundred.length !== 100) throw new Error(`E3 (100 users): ${d3} holds ${e3Hundred.length} users`);
      },
      run: () => invoke('E3', { params: { department_id: d4 }, body: { user_ids: e3Hundred } }),
      // More than one transaction holds: the bulk protocol of bulk-move.ts. Reads as for 40 users. Writes:
      // reserve (header put with its BULK index entry, the target's counters); per part a hold (header check — or,
      // on the last, its state update and the audit entry —, the part item, bulk_lock set on each user, which
      // rewrites the user's three index entries); per part an apply (part deleted, header update, each user
      // rewritten into the target, the source's counters); finish (header deleted). Parts as packParts makes
      // them: up to 97 items, users plus the departments they leave.
      min: async (since) => {
        const users = await sizer.items(e3Hundred.map(userKey));
        const target = await sizer.item(departmentKey(d4));
        const source = await sizer.item(departmentKey(d3));
        const parts: string[][] = [];
        for (let i = 0; i < e3Hundred.length; i += 96) parts.push(e3Hundred.slice(i, i + 96)); // one source department: 96 + 1 per part
        const header: Item = {
          ...bulkHeaderKey('xxxxxxxxxxxxxxxx'),
          type: 'bulk_move',
          id: 'xxxxxxxxxxxxxxxx',
          state: 'preparing',
          operation: 'E3',
          target: d4,
          at: since,
          lease_until: since,
          parts: parts.length,
          parts_left: parts.length,
          reserved_users: 100,
          reserved_activated_users: 100,
          reserved_admins: 10,
          reserved_managers: 10,
          reserved_guests: 10,
          gsi1pk: 'BULK',
          gsi1sk: `${since}#xxxxxxxxxxxxxxxx`,
        };
        const partItem = (ids: string[]): Item => ({
          pk: 'BULK#xxxxxxxxxxxxxxxx',
          sk: 'PART#0000',
          type: 'bulk_part',
          user_ids: ids,
          usage_users: ids.length,
          usage_activated_users: ids.length,
          usage_admins: 10,
          usage_managers: 10,
          usage_guests: 10,
        });
        const audit = await sizer.auditSince(since);
        const reserve = sum(tx(header, 'put'), tx(target, 'put'));
        const holds = parts.map((ids, index) =>
          sum(
            tx(header, ...(index === parts.length - 1 ? (['put'] as const) : [])),
            tx(partItem(ids)),
            ...ids.map((id) => tx(users[e3Hundred.indexOf(id)], 'put', 'put', 'put')),
          ),
        );
        const applies = parts.map((ids) =>
          sum(
            tx(partItem(ids)),
            tx(header, 'put'),
            ...ids.map((id) => tx(users[e3Hundred.indexOf(id)], 'put', 'key', 'put')),
            tx(source, 'put'),
          ),
        );
        return sum(get(target), ...users.map((u) => get(u)), reserve, ...holds, auditWrites(audit), ...applies, tx(header, 'delete'));
      },
      note: 'protocol: every user is written twice (hold, apply), each time with its 3 index entries',
    },
    {
      operation: 'E5 (10 users)',
      setup: () => remember(e5Ten().map(userKey)),
      run: () => invoke('E5', { params: { department_id: d4 }, body: { user_ids: e5Ten() } }),
      // Read the users (versions, membership); one transaction: each user rewritten out of the department (byName and
      // byRole keys IN→OUT, byDepartment entry deleted), the department's counters, a shard, audit. The department
      // itself need not be read: only the 404 of a missing department needs it (E4 reads it on that path only).
      min: async (since) =>
        sum(
          ...e5Ten().map((id) => get(was(userKey(id)))),
          ...e5Ten().map((id) => tx(was(userKey(id)), 'key', 'delete', 'key')),
          tx(await sizer.item(departmentKey(d4)), 'put'),
          STATS,
          auditWrites(await sizer.auditSince(since)),
        ),
    },
    {
      operation: 'G3 (10 users)',
      run: () => invoke('G3', { body: { id: newGroup, name: 'Capacity group', user_ids: g3Users } }),
      // Read the users (404s, the answer); one transaction: the group (byName entry), its name claim, a shard, audit,
      // and per user the two membership items and a ConditionCheck on the user (exists, not being deleted).
      min: async (since) => {
        const users = await sizer.items(g3Users.map(userKey));
        const group = await sizer.item(groupKey(newGroup));
        const generation = String(group.generation);
        const memberships = await sizer.items(
          g3Users.flatMap((id) => [groupMemberKey({ id: newGroup, generation }, id), userGroupKey(id, { id: newGroup, generation })]),
        );
        return sum(
          ...users.map((u) => get(u)),
          tx(group, 'put'),
          tx(await sizer.item(groupNameKey('Capacity group'))),
          STATS,
          auditWrites(await sizer.auditSince(since)),
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
        const group = await sizer.item(groupKey(newGroup));
        const members = await sizer.partition(membersPartition({ id: newGroup, generation: String(group.generation) }));
        const users = await sizer.items(members.map((m) => userKey(String(m.user_id))));
        return sum(get(group), query(members, true), ...users.map((u) => get(u)));
      },
    },
    {
      operation: 'G2',
      run: () => invoke('G2'),
      min: async () => sum(query(await sizer.indexPage(GROUPS_PARTITION, 100), false), statsRead(await sizer.partition(STATS_PARTITION))),
    },
    {
      operation: 'G4',
      run: () => invoke('G4', { params: { group_id: newGroup, user_id: g4User } }),
      // Read the group (generation, state) and the user (the answer). Whether the user is already a member need not be
      // read: the member put is conditional on its absence. One transaction: the group's count (byName entry), a
      // ConditionCheck on the user (exists, not being deleted), the two membership items, audit.
      min: async (since) => {
        const group = await sizer.item(groupKey(newGroup));
        const user = await sizer.item(userKey(g4User));
        const generation = String(group.generation);
        return sum(
          get(group),
          get(user),
          tx(group, 'put'),
          tx(user),
          tx(await sizer.item(groupMemberKey({ id: newGroup, generation }, g4User))),
          tx(await sizer.item(userGroupKey(g4User, { id: newGroup, generation }))),
          auditWrites(await sizer.auditSince(since)),
        );
      },
      note: 'the membership read is avoidable (the put is conditional)',
    },
    {
      operation: 'G5',
      setup: async () => {
        const group = await sizer.item(groupKey(newGroup));
        const generation = String(group.generation);
        await remember([groupMemberKey({ id: newGroup, generation }, g4User), userGroupKey(g4User, { id: newGroup, generation })]);
      },
      run: () => invoke('G5', { params: { group_id: newGroup, user_id: g4User } }),
      // Read the group (generation); one transaction: its count, both membership items deleted (the group side
      // conditional on existing: that condition answers "not a member"), audit.
      min: async (since) => {
        const group = await sizer.item(groupKey(newGroup));
        const generation = String(group.generation);
        return sum(
          get(group),
          tx(group, 'put'),
          tx(was(groupMemberKey({ id: newGroup, generation }, g4User))),
          tx(was(userGroupKey(g4User, { id: newGroup, generation }))),
          auditWrites(await sizer.auditSince(since)),
        );
      },
      note: 'the membership read is avoidable (the delete is conditional)',
    },
    {
      operation: 'G6 (10 users)',
      setup: async () => {
        const group = await sizer.item(groupKey(newGroup));
        const generation = String(group.generation);
        const members = await sizer.partition(membersPartition({ id: newGroup, generation }));
        await remember([
          groupKey(newGroup),
          groupNameKey('Capacity group'),
          ...members.flatMap((m) => [
            groupMemberKey({ id: newGroup, generation }, String(m.user_id)),
            userGroupKey(String(m.user_id), { id: newGroup, generation }),
          ]),
        ]);
      },
      run: () => invoke('G6', { params: { group_id: newGroup } }),
      // Read the group and its member partition; one transaction: the group (and its byName entry) and its name claim
      // deleted, a shard, audit, both items of every membership deleted.
      min: async (since) => {
        const items = [...before.values()];
        const group = items.find((i) => i.sk === 'GROUP')!;
        const members = items.filter((i) => i.type === 'group-member');
        return sum(
          get(group),
          query(members, true),
          tx(group, 'delete'),
          ...items.filter((i) => i.sk !== 'GROUP').map((i) => tx(i)),
          STATS,
          auditWrites(await sizer.auditSince(since)),
        );
      },
    },
    {
      operation: 'deleteUser',
      setup: () => remember([userKey(newUser), emailClaimKey(`${newUser}@example.com`)]),
      run: () => invoke('deleteUser', { params: { user_id: newUser } }),
      // Needed: the user as it stands (version, department, e-mail), the lock that stops group additions (an update
      // of the user item, so its byName and byRole entries are rewritten: ALL projection) and, after the lock, its
      // memberships. The lock can hand back the user (ReturnValues ALL_OLD), so one read suffices: a consistent Query
      // of partition USER#<id> after the lock. One transaction: the user deleted (both index entries), its e-mail
      // claim, a shard, audit.
      min: async (since) =>
        sum(
          query([was(userKey(newUser))], true),
          write(was(userKey(newUser)), { transaction: false, indexes: ['put', 'put'] }),
          tx(was(userKey(newUser)), 'delete', 'delete'),
          tx(was(emailClaimKey(`${newUser}@example.com`))),
          STATS,
          auditWrites(await sizer.auditSince(since)),
        ),
      note: 'the lock can return the user (ALL_OLD) and one Query read the memberships: 1 read, not GetItem + Query',
    },
    {
      operation: 'E9',
      run: async () => {
        const result = await invoke('E9');
        reportId = JSON.parse(result.body!).id;
        return result;
      },
      // The job item (listed in REPORTS#PENDING of byName) and the audit entry, in one transaction.
      min: async (since) => sum(tx(await sizer.item(reportKey(reportId)), 'put'), auditWrites(await sizer.auditSince(since))),
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
      // The newest 100 entries of the AUDIT partition. The total is read from a counter in every other list; the
      // audit trail has none, so this minimum assumes one (0.5 RCU) — the service counts the whole trail instead.
      min: async () => sum(query(await sizer.indexPage(AUDIT_PARTITION, 100, true), false), query([100], false)),
      note: 'the total counts the whole trail (no counter): grows with the trail',
    },
  ];

  meterCapacity();
  installCommandLog(sizer);
  const results: CapacityResult[] = [];
  for (const op of ops) {
    await op.setup?.();
    const since = new Date(Date.now() - 1).toISOString();
    log = [];
    charged = { wcu: 0, indexWcu: 0, reportedByLocal: 0 };
    const { result, capacity } = await measure(op.run);
    const calls = summarize(log);
    const scans = log.filter((name) => name === 'ScanCommand').length;
    const min = await op.min(since, result);
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
      ...(op.note ? { note: op.note } : {}),
    });
  }
  return results;
}
