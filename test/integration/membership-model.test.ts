/**
 * Model-based property test of department membership and quotas.
 *
 * Random sequences of user (POST/PATCH/DELETE), department (POST, E8),
 * membership (E2, E3, E4, E5) and quota (E7) operations run against the
 * service over HTTP and against a small in-memory model of users,
 * departments, limits and memberships. After every step the answers agree
 * (status, problem type and the members the problem carries) and the invariant
 * checker finds nothing; a `compare` step and the end of every run compare
 * every user and every department's six quotas with the model.
 *
 * Ids come from small pools (6 users, 3 departments, plus ids that never
 * exist) so that collisions are frequent. Each run also picks its
 * DEPARTMENT_SEATS (unset, 2 or 4), so the read-only `seats` quota binds too. Every run (and every shrinking
 * attempt) gets a fresh table of its own and the functions are deployed again
 * with it and the run's seats (the stack's departmentSeats: a synth per value,
 * cached), so runs never see each other's data and the service-wide counters
 * are checked exactly.
 *
 * The model follows the contract. Where the contract leaves the precedence of
 * two errors open, the model follows the domain code (noted at each command).
 * The contract fixes no order for `overages`, `missing_user_ids` or `user_ids`: those are
 * compared as sets.
 *
 * Replay a failure with FC_SEED=<seed> FC_PATH=<path> FC_REPLAY_PATH=<replayPath>
 * (fast-check prints all three: the last one in the counterexample's
 * comment); FC_RUNS=<n> runs more sequences than the default 30;
 * FC_SHRINK=false reports the first failure without shrinking it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway } from '../../infra/local/gateway';
import { createTable } from '../../infra/local/services';
import { batchDelete } from '../../lib/db/batch';
import { PARTITION_KEY, SORT_KEY } from '../../lib/db/table';
import { Api, READ_TOKEN, WRITE_TOKEN, type ApiResponse } from '../support/api';
import { startFunctions, TEST_CONTEXT } from '../support/functions';
import { invariantViolations, scanTable } from '../support/invariants';

// ---------------------------------------------------------------------------
// Pools

const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
type Role = (typeof ROLES)[number];
const COUNTED = ['users', 'activated_users', 'admins', 'managers', 'guests'] as const;
type Counted = (typeof COUNTED)[number];
/** E6 order. */
const QUOTAS = [...COUNTED, 'seats'] as const;
type QuotaName = (typeof QUOTAS)[number];

const USER_IDS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const GHOST_USER = 'ux'; // never created
const DEPARTMENT_IDS = ['d0', 'd1', 'd2'];
const GHOST_DEPARTMENT = 'dx'; // never created

const poolUserId = fc.constantFrom(...USER_IDS);
const poolDepartmentId = fc.constantFrom(...DEPARTMENT_IDS);
const userId = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...USER_IDS) }, { weight: 1, arbitrary: fc.constant(GHOST_USER) });
const departmentId = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...DEPARTMENT_IDS) },
  { weight: 1, arbitrary: fc.constant(GHOST_DEPARTMENT) },
);
/** E3 lists: 1–6 ids from the 6 pool ids and an unknown one, so repeats are common and unknown ids come up. */
const userIdList = fc.array(
  fc.oneof({ weight: 15, arbitrary: fc.constantFrom(...USER_IDS) }, { weight: 1, arbitrary: fc.constant(GHOST_USER) }),
  { minLength: 1, maxLength: 6 },
);
/**
 * A user chosen either by id or as "the k-th member of a department" (the
 * step's own department when `of` is absent), resolved against the model when
 * the step runs (an empty department falls back to the pool). Random ids
 * rarely hit a member; this keeps E4, E5 and member PATCHes interesting.
 */
type UserPick = { id: string } | { of?: string; member: number };
const showPick = (pick: UserPick) => ('id' in pick ? pick.id : `member#${pick.member}${pick.of ? `-of-${pick.of}` : ''}`);
const memberPick = (of?: string) => fc.nat(5).map((member): UserPick => ({ of, member }));
const idPick = userId.map((id): UserPick => ({ id }));
const role = fc.constantFrom(...ROLES);
/** `users` and `activated_users` bind most additions, so they come up more often. */
const quotaName = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Counted>('users') },
  { weight: 2, arbitrary: fc.constant<Counted>('activated_users') },
  { weight: 3, arbitrary: fc.constantFrom<Counted>('admins', 'managers', 'guests') },
);
/** DEPARTMENT_SEATS of a run: the read-only `seats` quota's limit for every department. */
const SEAT_LIMITS = [null, 2, 4] as const;
const seatsSetting = fc.constantFrom(...SEAT_LIMITS);
/** Small limits (0–3, mostly tight) or null (no limit). */
const limit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(0, 1) },
  { weight: 2, arbitrary: fc.constantFrom(2, 3) },
  { weight: 1, arbitrary: fc.constant(null) },
);

// ---------------------------------------------------------------------------
// Model

interface ModelUser {
  role: Role;
  activated: boolean;
  department: string | null;
}

type Usage = Record<Counted, number>;

interface Overage {
  quota: QuotaName;
  limit: number;
  usage: number;
  requested: number;
  overage: number;
}

const ZERO: Usage = { users: 0, activated_users: 0, admins: 0, managers: 0, guests: 0 };

function contribution(user: { role: Role; activated: boolean }): Usage {
  return {
    users: 1,
    activated_users: user.activated ? 1 : 0,
    admins: user.role === 'admin' ? 1 : 0,
    managers: user.role === 'manager' ? 1 : 0,
    guests: user.role === 'guest' ? 1 : 0,
  };
}

const plus = (a: Usage, b: Usage): Usage => Object.fromEntries(COUNTED.map((q) => [q, a[q] + b[q]])) as Usage;
/** What a change raises: the positive part of after − before, quota by quota. */
const raised = (before: Usage, after: Usage): Usage =>
  Object.fromEntries(COUNTED.map((q) => [q, Math.max(0, after[q] - before[q])])) as Usage;

class Model {
  /** @param seats the run's DEPARTMENT_SEATS (null: unset) */
  constructor(readonly seats: number | null) {}
  users = new Map<string, ModelUser>();
  /** Department id → its editable limits (null = none). */
  departments = new Map<string, Record<Counted, number | null>>();

  members(departmentId: string): string[] {
    return [...this.users].filter(([, u]) => u.department === departmentId).map(([id]) => id);
  }

  usage(departmentId: string): Usage {
    return this.members(departmentId).reduce((total, id) => plus(total, contribution(this.users.get(id)!)), ZERO);
  }

  resolve(pick: UserPick, department?: string): string {
    if ('id' in pick) return pick.id;
    const members = this.members((pick.of ?? department)!);
    return members.length > 0 ? members[pick.member % members.length] : USER_IDS[pick.member % USER_IDS.length];
  }

  limits(departmentId: string): Record<QuotaName, number | null> {
    return { ...this.departments.get(departmentId)!, seats: this.seats };
  }

  /** Every quota with a limit that `usage + requested` would pass, for quotas the request raises. */
  overages(departmentId: string, requested: Usage): Overage[] {
    const usage = { ...this.usage(departmentId), seats: 0 };
    usage.seats = usage.users;
    const asked = { ...requested, seats: requested.users };
    const limits = this.limits(departmentId);
    const overages: Overage[] = [];
    for (const quota of QUOTAS) {
      const max = limits[quota];
      if (max === null || asked[quota] === 0 || usage[quota] + asked[quota] <= max) continue;
      overages.push({ quota, limit: max, usage: usage[quota], requested: asked[quota], overage: usage[quota] + asked[quota] - max });
    }
    return overages;
  }

  quotas(departmentId: string) {
    const usage = this.usage(departmentId);
    const limits = this.limits(departmentId);
    return QUOTAS.map((name) => ({
      name,
      limit: limits[name],
      usage: name === 'seats' ? usage.users : usage[name],
      editable: name !== 'seats',
    }));
  }
}

// ---------------------------------------------------------------------------
// Checks

interface Real {
  api: Api;
}

const unique = <T>(items: T[]): T[] => [...new Set(items)];
const byQuota = (overages: Overage[]) => [...overages].sort((a, b) => QUOTAS.indexOf(a.quota) - QUOTAS.indexOf(b.quota));

function expectStatus(step: string, response: ApiResponse, status: number) {
  expect(response.status, `${step} answered ${response.status} ${response.text}`).toBe(status);
}

function expectProblem(step: string, response: ApiResponse, status: number, slug: string) {
  expectStatus(step, response, status);
  expect(response.body?.type, `${step} answered ${response.text}`).toBe(`/problems/${slug}`);
  expect(response.body?.status, `${step} answered ${response.text}`).toBe(status);
}

function expectOverages(step: string, response: ApiResponse, expected: Overage[]) {
  expectProblem(step, response, 409, 'quota-exceeded');
  // The contract does not fix the order of `overages`; compare them quota by quota.
  expect(byQuota(response.body.overages ?? []), `${step} overages`).toEqual(byQuota(expected));
}

/** The user representation agrees with the model. */
function expectUser(step: string, body: any, id: string, user: ModelUser) {
  expect(body, `${step} user`).toMatchObject({
    id,
    account_role: user.role,
    activated: user.activated,
    department_id: user.department,
  });
}

async function expectInvariants(step: string) {
  expect(await invariantViolations(), `invariants after ${step}`).toEqual([]);
}

/** Every pool user and department, as the service answers it, agrees with the model. */
async function compareAll(model: Model, real: Real, step: string) {
  const userIds = [...USER_IDS, GHOST_USER];
  const departmentIds = [...DEPARTMENT_IDS, GHOST_DEPARTMENT];
  const [users, quotas, departments] = await Promise.all([
    Promise.all(userIds.map((id) => real.api.get(`/v2/users/${id}`))),
    Promise.all(departmentIds.map((id) => real.api.get(`/v2/departments/${id}/quotas`))),
    Promise.all(departmentIds.map((id) => real.api.get(`/v2/departments/${id}`))),
  ]);
  for (const [i, id] of userIds.entries()) {
    const user = model.users.get(id);
    if (!user) expectProblem(`${step}: GET user ${id}`, users[i], 404, 'not-found');
    else {
      expectStatus(`${step}: GET user ${id}`, users[i], 200);
      expectUser(`${step}: GET user ${id}`, users[i].body, id, user);
    }
  }
  for (const [i, id] of departmentIds.entries()) {
    if (!model.departments.has(id)) {
      expectProblem(`${step}: E6 ${id}`, quotas[i], 404, 'not-found');
      expectProblem(`${step}: GET department ${id}`, departments[i], 404, 'not-found');
    } else {
      expectStatus(`${step}: E6 ${id}`, quotas[i], 200);
      expect(quotas[i].body, `${step}: E6 ${id}`).toEqual({ department_id: id, quotas: model.quotas(id) });
      expectStatus(`${step}: GET department ${id}`, departments[i], 200);
      expect(departments[i].body.user_count, `${step}: user_count of ${id}`).toBe(model.members(id).length);
    }
  }
}

// ---------------------------------------------------------------------------
// Commands

type Command = fc.AsyncCommand<Model, Real>;

abstract class Step implements Command {
  check = () => true;
  abstract toString(): string;
  protected abstract step(model: Model, real: Real): Promise<void>;
  async run(model: Model, real: Real) {
    await this.step(model, real);
    await expectInvariants(this.toString());
  }
}

/** POST /v2/users. A taken id or e-mail (compared case-insensitively) → 409 conflict. */
class CreateUser extends Step {
  constructor(
    readonly id: string,
    readonly role: Role,
    readonly activated: boolean,
    readonly shout: boolean,
  ) {
    super();
  }
  toString = () => `createUser(${this.id}, ${this.role}, activated=${this.activated}${this.shout ? ', EMAIL IN CAPITALS' : ''})`;
  async step(model: Model, real: Real) {
    const email = this.shout ? `${this.id.toUpperCase()}@EXAMPLE.COM` : `${this.id}@example.com`;
    const body = { id: this.id, email, last_name: `Last ${this.id}`, account_role: this.role, activated: this.activated };
    const response = await real.api.post('/v2/users', body);
    if (model.users.has(this.id)) return expectProblem(this.toString(), response, 409, 'conflict');
    const user: ModelUser = { role: this.role, activated: this.activated, department: null };
    expectStatus(this.toString(), response, 201);
    expectUser(this.toString(), response.body, this.id, user);
    model.users.set(this.id, user);
  }
}

/**
 * PATCH /v2/users/{id} of account_role and/or activated. Unknown user → 404
 * not-found. For a member, what the change raises is checked against its
 * department's limits → 409 quota-exceeded with overages (`requested` 1 per
 * raised quota); a change that raises nothing (a demotion, a deactivation,
 * the same values) always passes, even in a department over its limits.
 */
class PatchUser extends Step {
  constructor(
    readonly pick: UserPick,
    readonly patch: { account_role?: Role; activated?: boolean },
  ) {
    super();
  }
  toString = () => `patchUser(${showPick(this.pick)}, ${JSON.stringify(this.patch)})`;
  async step(model: Model, real: Real) {
    const id = model.resolve(this.pick);
    const step = `${this} [${id}]`;
    const response = await real.api.patch(`/v2/users/${id}`, this.patch);
    const before = model.users.get(id);
    if (!before) return expectProblem(step, response, 404, 'not-found');
    const after: ModelUser = {
      ...before,
      role: this.patch.account_role ?? before.role,
      activated: this.patch.activated ?? before.activated,
    };
    if (before.department) {
      const overages = model.overages(before.department, raised(contribution(before), contribution(after)));
      if (overages.length > 0) return expectOverages(step, response, overages);
    }
    expectStatus(step, response, 200);
    expectUser(step, response.body, id, after);
    model.users.set(id, after);
  }
}

/** DELETE /v2/users/{id}: 204, the user leaves its department. */
class DeleteUser extends Step {
  constructor(readonly id: string) {
    super();
  }
  toString = () => `deleteUser(${this.id})`;
  async step(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/users/${this.id}`);
    if (!model.users.has(this.id)) return expectProblem(this.toString(), response, 404, 'not-found');
    expectStatus(this.toString(), response, 204);
    model.users.delete(this.id);
  }
}

/** POST /v2/departments: 201 with no users and no limits; a taken id → 409 conflict. */
class CreateDepartment extends Step {
  constructor(readonly id: string) {
    super();
  }
  toString = () => `createDepartment(${this.id})`;
  async step(model: Model, real: Real) {
    const response = await real.api.post('/v2/departments', { id: this.id, name: `Department ${this.id}` });
    if (model.departments.has(this.id)) return expectProblem(this.toString(), response, 409, 'conflict');
    expectStatus(this.toString(), response, 201);
    expect(response.body, this.toString()).toMatchObject({ id: this.id, user_count: 0 });
    model.departments.set(this.id, { users: null, activated_users: null, admins: null, managers: null, guests: null });
  }
}

/** E8: 200 {id, deleted: true}; 409 department-not-empty with user_count while it has users. */
class DeleteDepartment extends Step {
  constructor(readonly id: string) {
    super();
  }
  toString = () => `E8 deleteDepartment(${this.id})`;
  async step(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/departments/${this.id}`);
    if (!model.departments.has(this.id)) return expectProblem(this.toString(), response, 404, 'not-found');
    const userCount = model.members(this.id).length;
    if (userCount > 0) {
      expectProblem(this.toString(), response, 409, 'department-not-empty');
      expect(response.body.user_count, this.toString()).toBe(userCount);
      return;
    }
    expectStatus(this.toString(), response, 200);
    expect(response.body, this.toString()).toEqual({ id: this.id, deleted: true });
    model.departments.delete(this.id);
  }
}

/**
 * E2. An unknown user or department → 404 not-found (either way round: the
 * same answer). Already a member → 200, nothing changes (no quota check, even
 * over a limit). Otherwise the whole user is requested of the new department
 * (a move counts fully) → 409 quota-exceeded, or 200 and it moves.
 */
class AddUser extends Step {
  constructor(
    readonly department: string,
    readonly id: string,
  ) {
    super();
  }
  toString = () => `E2 add(${this.department}, ${this.id})`;
  async step(model: Model, real: Real) {
    const response = await real.api.post(`/v2/departments/${this.department}/users/${this.id}`);
    const user = model.users.get(this.id);
    if (!user || !model.departments.has(this.department)) return expectProblem(this.toString(), response, 404, 'not-found');
    if (user.department !== this.department) {
      const overages = model.overages(this.department, contribution(user));
      if (overages.length > 0) return expectOverages(this.toString(), response, overages);
    }
    const after = { ...user, department: this.department };
    expectStatus(this.toString(), response, 200);
    expectUser(this.toString(), response.body, this.id, after);
    model.users.set(this.id, after);
  }
}

/**
 * E4. Unknown department or user → 404 not-found; a user of another
 * department or of none → 404 not-a-member with user_ids [id]; else 204.
 */
class RemoveUser extends Step {
  constructor(
    readonly department: string,
    readonly pick: UserPick,
  ) {
    super();
  }
  toString = () => `E4 remove(${this.department}, ${showPick(this.pick)})`;
  async step(model: Model, real: Real) {
    const id = model.resolve(this.pick, this.department);
    const step = `${this} [${id}]`;
    const response = await real.api.delete(`/v2/departments/${this.department}/users/${id}`);
    const user = model.users.get(id);
    if (!user || !model.departments.has(this.department)) return expectProblem(step, response, 404, 'not-found');
    if (user.department !== this.department) {
      expectProblem(step, response, 404, 'not-a-member');
      expect(response.body.user_ids, step).toEqual([id]);
      return;
    }
    expectStatus(step, response, 204);
    expect(response.text, step).toBe('');
    model.users.set(id, { ...user, department: null });
  }
}

/**
 * E7: 200 the quota object; a limit below usage is accepted; unknown
 * department → 404. `seats` → 403 quota-not-editable, checked before the
 * department (lib/departments/quota-limits.ts), so also for an unknown one.
 */
class SetQuota extends Step {
  constructor(
    readonly department: string,
    readonly name: Counted | 'seats',
    readonly limit: number | null,
  ) {
    super();
  }
  toString = () => `E7 setQuota(${this.department}, ${this.name}, ${this.limit})`;
  async step(model: Model, real: Real) {
    const response = await real.api.put(`/v2/departments/${this.department}/quotas`, { name: this.name, limit: this.limit });
    if (this.name === 'seats') return expectProblem(this.toString(), response, 403, 'quota-not-editable');
    const limits = model.departments.get(this.department);
    if (!limits) return expectProblem(this.toString(), response, 404, 'not-found');
    expectStatus(this.toString(), response, 200);
    limits[this.name] = this.limit;
    expect(response.body, this.toString()).toEqual(model.quotas(this.department).find((q) => q.name === this.name));
  }
}

/**
 * E3, all-or-nothing; repeats are ignored. Unknown department → 404
 * not-found, checked first (lib/departments/bulk-membership.ts; so no
 * missing_user_ids then); unknown users → 404 not-found with
 * missing_user_ids; over a
 * quota → 409 quota-exceeded where `requested` is what the whole request adds
 * (users already in the department add nothing, users from another
 * department count fully); else 200 {users} in request order.
 */
class AddUsers extends Step {
  constructor(
    readonly department: string,
    readonly ids: string[],
  ) {
    super();
  }
  toString = () => `E3 addMany(${this.department}, [${this.ids.join(', ')}])`;
  async step(model: Model, real: Real) {
    const response = await real.api.post(`/v2/departments/${this.department}/users`, { user_ids: this.ids });
    const ids = unique(this.ids);
    if (!model.departments.has(this.department)) return expectProblem(this.toString(), response, 404, 'not-found');
    const missing = ids.filter((id) => !model.users.has(id));
    if (missing.length > 0) {
      expectProblem(this.toString(), response, 404, 'not-found');
      expect([...(response.body.missing_user_ids ?? [])].sort(), `${this.toString()} missing_user_ids`).toEqual([...missing].sort());
      return;
    }
    const joining = ids.filter((id) => model.users.get(id)!.department !== this.department);
    const requested = joining.reduce((total, id) => plus(total, contribution(model.users.get(id)!)), ZERO);
    const overages = model.overages(this.department, requested);
    if (overages.length > 0) return expectOverages(this.toString(), response, overages);
    for (const id of joining) model.users.set(id, { ...model.users.get(id)!, department: this.department });
    expectStatus(this.toString(), response, 200);
    expect(
      response.body.users.map((u: { id: string }) => u.id),
      `${this.toString()} users in request order`,
    ).toEqual(ids);
    for (const body of response.body.users) expectUser(this.toString(), body, body.id, model.users.get(body.id)!);
  }
}

/**
 * E5, all-or-nothing; repeats are ignored. Unknown department → 404
 * not-found, checked first; any listed user that is not a member of it (unknown users
 * included) → 404 not-a-member with user_ids; else 204 and all leave.
 */
class RemoveUsers extends Step {
  constructor(
    readonly department: string,
    readonly picks: UserPick[],
  ) {
    super();
  }
  toString = () => `E5 removeMany(${this.department}, [${this.picks.map(showPick).join(', ')}])`;
  async step(model: Model, real: Real) {
    const listed = this.picks.map((pick) => model.resolve(pick, this.department));
    const step = `${this} [${listed.join(', ')}]`;
    const response = await real.api.delete(`/v2/departments/${this.department}/users`, { user_ids: listed });
    const ids = unique(listed);
    if (!model.departments.has(this.department)) return expectProblem(step, response, 404, 'not-found');
    const outsiders = ids.filter((id) => model.users.get(id)?.department !== this.department);
    if (outsiders.length > 0) {
      expectProblem(step, response, 404, 'not-a-member');
      expect([...(response.body.user_ids ?? [])].sort(), `${step} user_ids`).toEqual([...outsiders].sort());
      return;
    }
    expectStatus(step, response, 204);
    expect(response.text, step).toBe('');
    for (const id of ids) model.users.set(id, { ...model.users.get(id)!, department: null });
  }
}

/** Reads everything back and compares it with the model. */
class CompareAll extends Step {
  toString = () => 'compareAll()';
  async step(model: Model, real: Real) {
    await compareAll(model, real, this.toString());
  }
}

const commands = fc.commands(
  [
    fc.oneof(
      { weight: 3, arbitrary: fc.tuple(poolUserId, role, fc.boolean(), fc.boolean()).map(([u, r, a, s]) => new CreateUser(u, r, a, s)) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(
            fc.oneof({ weight: 1, arbitrary: idPick }, { weight: 3, arbitrary: poolDepartmentId.chain((d) => memberPick(d)) }),
            fc.record({ account_role: role, activated: fc.boolean() }, { requiredKeys: [] }),
          )
          .filter(([, patch]) => Object.keys(patch).length > 0)
          .map(([u, patch]) => new PatchUser(u, patch)),
      },
      { weight: 1, arbitrary: userId.map((u) => new DeleteUser(u)) },
      { weight: 2, arbitrary: poolDepartmentId.map((d) => new CreateDepartment(d)) },
      { weight: 2, arbitrary: departmentId.map((d) => new DeleteDepartment(d)) },
      { weight: 5, arbitrary: fc.tuple(departmentId, userId).map(([d, u]) => new AddUser(d, u)) },
      { weight: 3, arbitrary: fc.tuple(departmentId, fc.oneof(idPick, memberPick())).map(([d, u]) => new RemoveUser(d, u)) },
      {
        weight: 8,
        arbitrary: fc.tuple(departmentId, quotaName, limit).map(([d, q, l]) => new SetQuota(d, q, l)),
      },
      { weight: 1, arbitrary: fc.tuple(departmentId, limit).map(([d, l]) => new SetQuota(d, 'seats', l)) },
      { weight: 6, arbitrary: fc.tuple(departmentId, userIdList).map(([d, ids]) => new AddUsers(d, ids)) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(
            departmentId,
            fc.array(fc.oneof({ weight: 1, arbitrary: idPick }, { weight: 6, arbitrary: memberPick() }), { minLength: 1, maxLength: 6 }),
          )
          .map(([d, picks]) => new RemoveUsers(d, picks)),
      },
      { weight: 1, arbitrary: fc.constant(new CompareAll()) },
    ),
  ],
  { maxCommands: 40, size: 'max', replayPath: process.env.FC_REPLAY_PATH },
);

// ---------------------------------------------------------------------------
// Runs

const services = inject('services');
const fileTable = process.env.TABLE_NAME!;

/**
 * The service deployed once per DEPARTMENT_SEATS setting (a stack setting: a
 * deployment of its own), each over a table of its own: a run uses the one of
 * its setting, emptied first, so that runs do not pay a redeploy (every
 * sandbox cold again) each.
 */
const deployments = new Map<number | null, { api: Api; table: string; close: () => Promise<void> }>();

beforeAll(async () => {
  for (const seats of SEAT_LIMITS) {
    const table = `${fileTable}-seats-${seats ?? 'none'}`;
    await createTable(services.endpoints.dynamodb, table);
    const context = seats === null ? TEST_CONTEXT : { ...TEST_CONTEXT, departmentSeats: seats };
    const functions = await startFunctions({ tableName: table, context });
    const gateway = await startGateway({
      tokens: { write: WRITE_TOKEN, read: READ_TOKEN },
      loadHandler: functions.loadHandler,
      scimAuthorizer: functions.scimAuthorizer,
      fallbackFunction: functions.fallbackFunction,
    });
    const close = async () => {
      await gateway.close();
      await functions.close();
    };
    deployments.set(seats, { api: new Api(gateway.url), table, close });
  }
}, 120_000);

afterAll(async () => {
  process.env.TABLE_NAME = fileTable;
  await Promise.all([...deployments.values()].map((deployment) => deployment.close()));
});

/** The service with the run's DEPARTMENT_SEATS, over its table emptied (and the invariant checker pointed at it). */
async function freshService(seats: number | null): Promise<Api> {
  const { api, table } = deployments.get(seats)!;
  process.env.TABLE_NAME = table;
  await batchDelete((await scanTable()).map((item) => ({ [PARTITION_KEY]: item[PARTITION_KEY], [SORT_KEY]: item[SORT_KEY] })));
  return api;
}

/** Every run starts from the same few users and departments, so that most steps find something to act on. */
const PRELUDE = [
  new CreateDepartment('d0'),
  new CreateDepartment('d1'),
  new CreateDepartment('d2'),
  new CreateUser('u0', 'admin', true, false),
  new CreateUser('u1', 'manager', false, false),
  new CreateUser('u2', 'member', true, false),
  new CreateUser('u3', 'guest', false, false),
  new CreateUser('u4', 'member', false, false),
  new CreateUser('u5', 'admin', false, false),
  new AddUsers('d0', ['u0', 'u1']),
  new AddUser('d1', 'u2'),
];

/** ...and from a few random limits on those departments (set after the members joined, so some start below usage). */
const initialLimits = fc
  .uniqueArray(fc.tuple(poolDepartmentId, quotaName, limit), { maxLength: 5, selector: ([d, q]) => `${d}/${q}` })
  .map((limits) => limits.map(([d, q, l]) => new SetQuota(d, q, l)));

describe('department membership and quotas against a model', () => {
  it('agrees with the model after every step of random operation sequences', async () => {
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(seatsSetting, initialLimits, commands, async (seats, limits, cmds) => {
        executed++;
        const real: Real = { api: await freshService(seats) };
        const model = new Model(seats);
        for (const step of [...PRELUDE, ...limits]) await step.run(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await compareAll(model, real, 'end of run');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 30), seed, path: process.env.FC_PATH, endOnFailure: process.env.FC_SHRINK === 'false' },
    );
    // A replay of a shrunk path without its FC_REPLAY_PATH finds no value and would pass having run nothing.
    expect(executed, 'sequences run (replaying a path needs FC_REPLAY_PATH too)').toBeGreaterThan(0);
  }, 300_000);
});
