/**
 * The capacity scenario: every operation called once through its handler with a typical request, on a dataset of its
 * own, metered (capacity-meter.ts). The bench's capacity section (against each minimum, capacity-figures.ts) and
 * test/integration/capacity.test.ts (against the exact figures) both run it; the figures depend on nothing else.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { sequenceEntries, sequencePending } from '../../../lib/changes/sequencer';
import { INDEXES } from '../../../lib/db/table';
import { put, transactWrite } from '../../../lib/db/transact';
import { auditItem, auditShard } from '../../../lib/store/audit';
import { ENTERPRISE_SCHEMA, PATCH_SCHEMA, USER_SCHEMA } from '../../../lib/scim/schema';
import { departmentKey } from '../../../lib/store/departments';
import { measure, meterCapacity, stopMetering, type Capacity } from './capacity-meter';
import { loadDataset, type Doc } from './dataset';
import { invoke, type Invocation } from './handler-call';
import { progress } from './util';

export type CapacityRow = Capacity & { operation: string };

/** Users loaded for the SCIM startIndex walk: an identity provider's import walks every user, page after page. */
const SCIM_PAGE_USERS = 1_000;
const SCIM_PAGE = 100;

/** `setup`: unmetered preparation; `run`: the request(s), through the route's handler. */
type Op = { operation: string; setup?: () => Promise<void>; run: () => Promise<unknown> };

/** `n` typical audit entries (an E2's), put as their changes put them, all in the trail's shard 0. */
async function pendingEntriesOfShard0(n: number): Promise<Array<Record<string, unknown>>> {
  const entries = [];
  for (let i = 0; entries.length < n; i++) {
    const id = `capseq${i}x${n}`;
    if (auditShard(id) !== 0) continue;
    const entry = { actor: 'local-admin', operation: 'E2', request_id: `r${i}`, resource_type: 'department' as const };
    entries.push(auditItem({ ...entry, resource_id: 'cap-dept', changes: { added_user_ids: [`u${i}`] } }, new Date().toISOString(), id));
  }
  await transactWrite(entries.map((item) => put(item)));
  return entries;
}

/** Runs every operation of the scenario once against `table` (empty: the figures assume nothing else in it). */
export async function runCapacityScenario(client: Doc, table: string): Promise<CapacityRow[]> {
  const item = async (key: { pk: string; sk: string }) =>
    (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item!;
  progress('capacity: loading its dataset (5 departments of 60 users, 60 users in none, 4 groups of 10)');
  const spec = { prefix: 'c', departments: 5, usersPerDepartment: 60, unassignedUsers: 60, groups: 4, usersPerGroup: 10 };
  const data = await loadDataset(client, table, spec);
  const [d0, d1, d2, d3, d4] = data.departments;
  const members = (d: string) => data.members.get(d)!;
  const [newUser, newDepartment, newGroup] = ['cap-user', 'cap-dept', 'cap-group'];
  const g3Users = members(d0).slice(0, 10);
  const g4User = members(d1)[0];
  let e3Hundred: string[] = [];
  let reportId = '';
  let auditSince = '';
  let sequenced: Array<Record<string, unknown>> = [];
  // SCIM: a member of d4 found by its user name; a new user placed by department name; an activated member of d0
  // deactivated (not one G3 takes); a user in no group added to a dataset group.
  const scimLookup = members(d4).at(-1)!;
  const scimDeactivate = data.users.find((u) => u.department_id === d0 && u.activated && !g3Users.includes(u.id) && u.id !== g4User)!.id;
  const scimGroup = data.groups[2].id;
  const scimMember = data.unassigned[10];
  let scimDepartmentName = '';
  const SCIM_PAGER = 'bench-pages';
  const pages: number[] = [];
  let firstPageHasMore = false;
  const scimPage = async (startIndex: number) => {
    const result = await invoke('scimListUsers', {
      query: { startIndex: String(startIndex), count: String(SCIM_PAGE) },
      scimTokenId: SCIM_PAGER,
    });
    const body = JSON.parse(result.body!) as { totalResults: number; itemsPerPage: number };
    return { more: startIndex - 1 + body.itemsPerPage < body.totalResults };
  };

  /** A request through `route`'s handler (by default the first word of `operation`). */
  const request = (operation: string, invocation?: Invocation, route = operation.split(' ')[0]): Op => ({
    ...{ operation, run: () => invoke(route, invocation) },
  });
  const patch = (op: string, path: string, value: unknown) => ({ schemas: [PATCH_SCHEMA], Operations: [{ op, path, value }] });
  const ops: Op[] = [
    request('createUser', { body: { id: newUser, email: `${newUser}@example.com`, last_name: 'Capacity', first_name: 'Bench' } }),
    request('getUser', { params: { user_id: newUser } }),
    request('updateUser', { params: { user_id: newUser }, body: { first_name: 'Changed' } }),
    request('E2', { params: { department_id: d0, user_id: newUser } }),
    request('E2 (move)', { params: { department_id: d1, user_id: newUser } }),
    request('E4', { params: { department_id: d1, user_id: newUser } }),
    request('E6', { params: { department_id: d0 } }),
    request('E7', { params: { department_id: d0 }, body: { name: 'users', limit: 1000 } }),
    request('createDepartment', { body: { id: newDepartment, name: 'Capacity' } }),
    request('getDepartment', { params: { department_id: newDepartment } }),
    request('updateDepartment', { params: { department_id: newDepartment }, body: { name: 'Capacity renamed' } }),
    request('E8', { params: { department_id: newDepartment } }),
    request('listDepartments'),
    {
      operation: 'E1',
      // A warm container, as every other row: its client connected by a first list request.
      setup: async () => void (await invoke('E1', { query: { count: '1' } })),
      run: () => invoke('E1', { query: { count: '100' } }),
    },
    request('listUsers', { query: { count: '100' } }),
    request('E3 (40 users)', { params: { department_id: d3 }, body: { user_ids: members(d2).slice(0, 40) } }),
    {
      operation: 'E3 (100 users)',
      setup: async () => {
        const page = await client.send(
          new QueryCommand({
            ...{ TableName: table, IndexName: INDEXES.byName.name, KeyConditionExpression: '#pk = :pk', Limit: 100 },
            ...{ ExpressionAttributeNames: { '#pk': INDEXES.byName.partitionKey }, ExpressionAttributeValues: { ':pk': `DEPT#${d3}` } },
          }),
        );
        e3Hundred = (page.Items ?? []).map((user) => String(user.id));
      },
      run: () => invoke('E3', { params: { department_id: d4 }, body: { user_ids: e3Hundred } }),
    },
    request('E5 (10 users)', { params: { department_id: d4 }, body: { user_ids: members(d4).slice(0, 10) } }),
    request('G3 (10 users)', { body: { id: newGroup, name: 'Capacity group', user_ids: g3Users } }),
    request('G1 (10 users)', { params: { group_id: newGroup } }),
    request('G2'),
    request('G4', { params: { group_id: newGroup, user_id: g4User } }),
    request('G5', { params: { group_id: newGroup, user_id: g4User } }),
    request('G6 (10 users)', { params: { group_id: newGroup } }),
    request('deleteUser', { params: { user_id: newUser } }),
    {
      operation: 'E9',
      // The audit list below reads from here on: E9's one entry, so its units do not hang on which of the trail's
      // shards the entries before happened to land in (DynamoDB Local meters a Query that finds nothing at 0).
      setup: async () => void (auditSince = new Date().toISOString()),
      run: async () => void (reportId = (JSON.parse((await invoke('E9')).body!) as { id: string }).id),
    },
    {
      operation: 'getDepartmentsReport',
      setup: async () => (await import('../../../lib/reports/worker')).runReport(reportId),
      run: () => invoke('getDepartmentsReport', { params: { report_id: reportId } }),
    },
    { operation: 'listAudit', run: () => invoke('listAudit', { query: { count: '100', since: auditSince } }) },
    // The change feed's sequencer, as the StreamRouter runs it on stream records: one entry alone, then ten of one
    // shard in one transaction (setup: what the scenario recorded before is placed first, unmetered).
    ...[1, 10].map((n): Op => ({
      operation: `sequencing (${n} ${n === 1 ? 'entry' : 'entries'} of a shard)`,
      setup: async () => {
        await sequencePending();
        sequenced = await pendingEntriesOfShard0(n);
      },
      run: () => sequenceEntries(sequenced),
    })),
    // SCIM: invoked as the SCIM authorizer lets them through (the token's id in the authorizer context; the
    // authorizer's own read is cached by API Gateway per token and is no part of a route's cost).
    {
      operation: 'SCIM userName eq',
      run: async () => {
        const result = await invoke('scimListUsers', { query: { filter: `userName eq "${scimLookup.toUpperCase()}@EXAMPLE.COM"` } });
        const total = (JSON.parse(result.body!) as { totalResults: number }).totalResults;
        if (total !== 1) throw new Error(`SCIM userName eq: ${total} users found, not 1`);
      },
    },
    {
      operation: 'SCIM create user (department by name)',
      setup: async () => void (scimDepartmentName = String((await item(departmentKey(d2))).name)),
      // As Entra and Okta send it: the enterprise department names an existing department (lower-cased).
      run: () =>
        invoke('scimCreateUser', {
          body: {
            ...{ schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA], userName: 'Scim.Provisioned@Example.com', externalId: 'entra-0f3c9a7e' },
            name: { givenName: 'Scim', familyName: 'Provisioned' },
            emails: [{ value: 'scim.provisioned@example.com', type: 'work', primary: true }],
            ...{ active: true, [ENTERPRISE_SCHEMA]: { department: scimDepartmentName.toLowerCase() } },
          },
        }),
    },
    // As Entra sends it by default: capitalised op, the boolean as a string.
    request('SCIM PATCH active false', { params: { user_id: scimDeactivate }, body: patch('Replace', 'active', 'False') }, 'scimPatchUser'),
    request(
      'SCIM PATCH group add member',
      { params: { group_id: scimGroup }, body: patch('Add', 'members', [{ value: scimMember }]) },
      'scimPatchGroup',
    ),
    {
      operation: `SCIM list page 1 (count=${SCIM_PAGE})`,
      setup: async () => {
        progress(`capacity: loading ${SCIM_PAGE_USERS.toLocaleString('en-US')} more users for the SCIM startIndex pages`);
        const spec = { prefix: 's', departments: SCIM_PAGE_USERS / 200, usersPerDepartment: 180, groups: 0, usersPerGroup: 0 };
        await loadDataset(client, table, { ...spec, unassignedUsers: SCIM_PAGE_USERS / 10 });
        // A warm container (another client's list, so that no page of the walk is kept).
        await invoke('scimListUsers', { query: { count: '1' }, scimTokenId: 'bench-warm' });
      },
      run: async () => void (firstPageHasMore = (await scimPage(1)).more),
    },
    {
      operation: `SCIM list pages 2+ (startIndex step ${SCIM_PAGE}, sum)`,
      run: async () => {
        for (let startIndex = 1 + SCIM_PAGE, more = firstPageHasMore; more; startIndex += SCIM_PAGE) {
          more = (await scimPage(startIndex)).more;
          pages.push(startIndex);
        }
      },
    },
    // The walk's last full page asked again (an identity provider's retry): a page at any depth costs one page.
    { operation: 'SCIM list page at depth (kept cursor)', run: () => scimPage(pages[pages.length - 2]) },
  ];

  meterCapacity(client, table);
  const rows: CapacityRow[] = [];
  try {
    for (const op of ops) {
      await op.setup?.();
      if (process.env.BENCH_DEBUG_TX) console.error(`op ${op.operation}`);
      const { capacity } = await measure(op.run);
      rows.push({ operation: op.operation, ...capacity });
    }
  } finally {
    stopMetering();
  }
  return rows;
}
