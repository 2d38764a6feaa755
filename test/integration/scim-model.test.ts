/**
 * Model-based property test of SCIM provisioning mixed with the admin API.
 *
 * Random sequences of what an identity provider does (create users with a
 * department by name, PATCH active, userName and department, delete; create
 * groups, add and remove members, remove all) interleaved with what an
 * administrator does at the same time (move a user with E2, rename a user's
 * user_name, delete a user) run against the service over HTTP and against a
 * small in-memory model. After every step the status agrees with the model
 * and the invariant checker (claims, counters, memberships) finds nothing;
 * at the end of every run each user is found (or not) by `userName eq` in
 * another case and each group has the model's members.
 *
 * Pools are small (4 user names, 3 department names, 2 groups) so that
 * collisions — a userName taken, a member deleted, a department created by
 * SCIM and then used by the admin API — are frequent. Each run gets a fresh
 * table. A member PATCH that adds two new members or more takes the path
 * of changes too large for one transaction (lib/groups/bulk-change.ts: the
 * limit is lowered to one here), so both paths meet every other step.
 * FC_RUNS=<n> runs more than the default 12; FC_SEED replays.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTable } from '../../infra/local/services';
import { withGroupTuning } from '../../lib/groups/groups';
import { useApi } from '../support/api';
import { invariantViolations } from '../support/invariants';
import { ENTERPRISE_SCHEMA, filterQuery, GROUP_SCHEMA, patchOps, scimClient, USER_SCHEMA, type ScimClient } from '../support/scim';

const api = useApi({
  inProcess: {
    because: 'shrinks internal sizes around each call',
    around: (call) => withGroupTuning({ singleTransactionMemberChanges: 1, chunkUsers: 2 }, call),
  },
});

const NAMES = ['ada@example.com', 'grace@example.com', 'alan@example.com', 'edsger@example.com'];
const DEPARTMENTS = ['Research', 'Sales', 'Legal'];
const GROUPS = [0, 1];

interface ModelUser {
  id: string;
  userName: string;
  active: boolean;
  department: string | null;
}

class Model {
  /** By slot (the index of the name the user was created with). */
  readonly users = new Map<number, ModelUser>();
  readonly groups = new Map<number, { id: string; members: Set<number> }>();
  /** Department name (folded) → id, once SCIM or the admin API made it. */
  readonly departments = new Map<string, string>();

  holderOf(userName: string): number | undefined {
    for (const [slot, user] of this.users) if (user.userName.toLowerCase() === userName.toLowerCase()) return slot;
    return undefined;
  }
}

const casing = fc.constantFrom<(text: string) => string>(
  (text) => text,
  (text) => text.toUpperCase(),
  (text) => text[0].toUpperCase() + text.slice(1),
);
const slot = fc.nat(NAMES.length - 1);
const department = fc.option(fc.nat(DEPARTMENTS.length - 1), { nil: null });
const bool = fc.constantFrom<boolean | string>(true, false, 'True', 'False');

type Step =
  | { kind: 'create'; slot: number; nameCase: (text: string) => string; department: number | null }
  | { kind: 'patchActive'; slot: number; value: boolean | string }
  | { kind: 'patchUserName'; slot: number; to: number; nameCase: (text: string) => string }
  | { kind: 'patchDepartment'; slot: number; department: number | null }
  | { kind: 'adminMove'; slot: number; department: number }
  | { kind: 'adminUserName'; slot: number; to: number }
  | { kind: 'delete'; slot: number; viaAdmin: boolean }
  | { kind: 'createGroup'; group: number }
  | { kind: 'addMembers'; group: number; slots: number[] }
  | { kind: 'removeMember'; group: number; slot: number; byFilter: boolean }
  | { kind: 'removeAll'; group: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), slot, nameCase: casing, department }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('patchActive' as const), slot, value: bool }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('patchUserName' as const), slot, to: slot, nameCase: casing }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('patchDepartment' as const), slot, department }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adminMove' as const), slot, department: fc.nat(DEPARTMENTS.length - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adminUserName' as const), slot, to: slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), slot, viaAdmin: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('createGroup' as const), group: fc.constantFrom(...GROUPS) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('addMembers' as const),
      group: fc.constantFrom(...GROUPS),
      slots: fc.uniqueArray(slot, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('removeMember' as const), group: fc.constantFrom(...GROUPS), slot, byFilter: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeAll' as const), group: fc.constantFrom(...GROUPS) }) },
);

const asBoolean = (value: boolean | string) => value === true || value === 'True';

/** Runs one step against the service and the model; the statuses must agree. */
async function run(scim: ScimClient, model: Model, s: Step): Promise<void> {
  const label = JSON.stringify({ ...s, nameCase: undefined });
  const expectStatus = (status: number, expected: number | 'client-error') =>
    expected === 'client-error'
      ? expect(status >= 400 && status < 500, `${label}: ${status}`).toBe(true)
      : expect(status, label).toBe(expected);
  const user = 'slot' in s ? model.users.get(s.slot) : undefined;

  switch (s.kind) {
    case 'create': {
      const userName = s.nameCase(NAMES[s.slot]);
      const dept = s.department === null ? null : DEPARTMENTS[s.department];
      const response = await scim.post('/Users', {
        schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
        userName,
        name: { givenName: 'G', familyName: `F${s.slot}` },
        ...(dept ? { [ENTERPRISE_SCHEMA]: { department: dept } } : {}),
      });
      const taken = model.holderOf(userName) !== undefined || model.users.has(s.slot);
      expectStatus(response.status, taken ? 409 : 201);
      if (response.status === 201) {
        model.users.set(s.slot, { id: response.body.id, userName, active: true, department: dept });
        if (dept) model.departments.set(dept.toLowerCase(), '?');
      }
      return;
    }
    case 'patchActive': {
      if (!user) return;
      const response = await scim.patch(`/Users/${user.id}`, patchOps({ op: 'Replace', path: 'active', value: s.value }));
      expectStatus(response.status, 200);
      user.active = asBoolean(s.value);
      return;
    }
    case 'patchUserName': {
      if (!user) return;
      const userName = s.nameCase(NAMES[s.to]);
      const response = await scim.patch(`/Users/${user.id}`, patchOps({ op: 'replace', value: { userName } }));
      const holder = model.holderOf(userName);
      expectStatus(response.status, holder !== undefined && holder !== s.slot ? 409 : 200);
      if (response.status === 200) user.userName = userName;
      return;
    }
    case 'patchDepartment': {
      if (!user) return;
      const dept = s.department === null ? null : DEPARTMENTS[s.department];
      const response = await scim.patch(
        `/Users/${user.id}`,
        dept === null
          ? patchOps({ op: 'remove', path: `${ENTERPRISE_SCHEMA}:department` })
          : patchOps({ op: 'replace', path: `${ENTERPRISE_SCHEMA}:department`, value: dept.toUpperCase() }),
      );
      expectStatus(response.status, 200);
      user.department = dept;
      if (dept) model.departments.set(dept.toLowerCase(), '?');
      return;
    }
    case 'adminMove': {
      if (!user) return;
      const dept = DEPARTMENTS[s.department];
      // The department as the admin API knows it: made by SCIM (found by name) or made here.
      let id = model.departments.get(dept.toLowerCase());
      if (!id || id === '?') {
        const listed = await api.get(`/v2/departments?query=${encodeURIComponent(`name:${dept}`)}`);
        id = listed.body.departments.find((d: { name: string }) => d.name.toLowerCase() === dept.toLowerCase())?.id;
        if (!id) {
          const made = await api.post('/v2/departments', { name: dept });
          expect(made.status, label).toBe(201);
          id = made.body.id as string;
        }
        model.departments.set(dept.toLowerCase(), id);
      }
      const response = await api.post(`/v2/departments/${id}/users/${user.id}`);
      expectStatus(response.status, 200);
      user.department = dept;
      return;
    }
    case 'adminUserName': {
      if (!user) return;
      const response = await api.patch(`/v2/users/${user.id}`, { user_name: NAMES[s.to] });
      const holder = model.holderOf(NAMES[s.to]);
      expectStatus(response.status, holder !== undefined && holder !== s.slot ? 409 : 200);
      if (response.status === 200) user.userName = NAMES[s.to];
      return;
    }
    case 'delete': {
      if (!user) return;
      const response = s.viaAdmin ? await api.delete(`/v2/users/${user.id}`) : await scim.delete(`/Users/${user.id}`);
      expectStatus(response.status, 204);
      model.users.delete(s.slot);
      for (const group of model.groups.values()) group.members.delete(s.slot);
      return;
    }
    case 'createGroup': {
      if (model.groups.has(s.group)) return;
      const response = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: `Group ${s.group}` });
      expectStatus(response.status, 201);
      model.groups.set(s.group, { id: response.body.id, members: new Set() });
      return;
    }
    case 'addMembers': {
      const group = model.groups.get(s.group);
      if (!group) return;
      // A slot with no user stands for a user deleted since: its id no longer exists.
      const values = s.slots.map((k) => ({ value: model.users.get(k)?.id ?? `gone-${k}` }));
      const response = await scim.patch(`/Groups/${group.id}`, patchOps({ op: 'Add', path: 'members', value: values }));
      const allExist = s.slots.every((k) => model.users.has(k));
      expectStatus(response.status, allExist ? 204 : 'client-error');
      if (allExist) s.slots.forEach((k) => group.members.add(k));
      return;
    }
    case 'removeMember': {
      const group = model.groups.get(s.group);
      if (!group || !user) return;
      const response = await scim.patch(
        `/Groups/${group.id}`,
        s.byFilter
          ? patchOps({ op: 'remove', path: `members[value eq "${user.id}"]` })
          : patchOps({ op: 'Remove', path: 'members', value: [{ value: user.id }] }),
      );
      expectStatus(response.status, 204);
      group.members.delete(s.slot);
      return;
    }
    case 'removeAll': {
      const group = model.groups.get(s.group);
      if (!group) return;
      const response = await scim.patch(`/Groups/${group.id}`, patchOps({ op: 'remove', path: 'members' }));
      expectStatus(response.status, 204);
      group.members.clear();
      return;
    }
  }
}

/** Every user and group as the model has them, read through SCIM. */
async function compare(scim: ScimClient, model: Model): Promise<void> {
  for (const name of NAMES) {
    const found = await scim.get(`/Users?${filterQuery(`userName eq "${name.toUpperCase()}"`)}`);
    const slotOf = model.holderOf(name);
    const expected = slotOf === undefined ? [] : [model.users.get(slotOf)!];
    expect(
      found.body.Resources.map((r: Record<string, any>) => ({
        id: r.id,
        userName: r.userName,
        active: r.active,
        department: r[ENTERPRISE_SCHEMA]?.department?.toLowerCase() ?? null,
      })),
      name,
    ).toEqual(expected.map((u) => ({ id: u.id, userName: u.userName, active: u.active, department: u.department?.toLowerCase() ?? null })));
  }
  for (const group of model.groups.values()) {
    const read = await scim.get(`/Groups/${group.id}`);
    const ids = (read.body.members ?? []).map((m: { value: string }) => m.value).sort();
    expect(ids).toEqual([...group.members].map((k) => model.users.get(k)!.id).sort());
  }
  expect(await invariantViolations()).toEqual([]);
}

/** Every run starts with three users, one in a department, and both groups, so that most steps find something to act on. */
const PRELUDE: Step[] = [
  { kind: 'create', slot: 0, nameCase: (text) => text, department: 0 },
  { kind: 'create', slot: 1, nameCase: (text) => text, department: null },
  { kind: 'create', slot: 2, nameCase: (text) => text.toUpperCase(), department: null },
  { kind: 'createGroup', group: 0 },
  { kind: 'createGroup', group: 1 },
  { kind: 'addMembers', group: 0, slots: [0, 1] },
];

const services = inject('services');
const fileTable = process.env.TABLE_NAME!;
let runs = 0;

afterAll(() => {
  process.env.TABLE_NAME = fileTable;
});

describe('SCIM and the admin API against a model', () => {
  it('agrees with the model after random sequences of identity-provider and administrator changes', async () => {
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30, size: 'max' }), async (steps) => {
        executed++;
        const name = `${fileTable}-scim${++runs}`;
        await createTable(services.endpoints.dynamodb, name);
        // The handlers here read it from this process; the SCIM authorizer and the background functions are deployed with it.
        process.env.TABLE_NAME = name;
        await api.redeploy({ tableName: name });
        const scim = scimClient(api);
        const model = new Model();
        for (const s of [...PRELUDE, ...steps]) {
          await run(scim, model, s);
          expect(await invariantViolations(), JSON.stringify({ ...s, nameCase: undefined })).toEqual([]);
        }
        await compare(scim, model);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 12), seed: process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED) },
    );
    expect(executed).toBeGreaterThan(0);
  }, 300_000);
});
