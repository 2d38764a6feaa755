/**
 * Model-based property test of rule groups: every user is in a rule group exactly when the rule matches them.
 *
 * Random sequences of user changes (create, PATCH of role and activation,
 * delete), department moves (E2, E3, E4), SCIM changes (deactivation and
 * activation, member changes) and rule changes (set, change, turn off, G4
 * by hand) go to the service over HTTP and to a model. Hand-made member
 * changes of a rule group must be refused (409 `rule-managed`, SCIM 400
 * `mutability`); a rule matching more than the limit must be refused (409)
 * when set. After each run, once the rule worker is quiet, every rule group's
 * members and `user_count` must be exactly the users its rule matches — or,
 * when they are more than the limit (lowered to 3 here, RULE_GROUP_MAX_USERS),
 * `over_limit` with the limit's worth of matching members — and `current`
 * otherwise; and the invariant checker finds nothing.
 *
 * Replay a failure with FC_SEED=<seed> FC_PATH=<path> (fast-check prints both).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchDelete } from '../../lib/db/batch';
import { PARTITION_KEY, SORT_KEY } from '../../lib/db/table';
import { useApi, type Api, type ApiResponse } from '../support/api';
import { invariantViolations, scanTable } from '../support/invariants';
import { PATCH_SCHEMA, scimClient, type ScimClient } from '../support/scim';

const LIMIT = 3;
const api = useApi();
let scim: ScimClient;
beforeAll(async () => {
  await api.redeploy({ adjust: (fn) => ({ ...fn, environment: { ...fn.environment, RULE_GROUP_MAX_USERS: String(LIMIT) } }) });
  scim = scimClient(api);
  await scim.token();
}, 120_000);

const ROLES = ['admin', 'manager', 'member', 'guest'] as const;
type Role = (typeof ROLES)[number];
const USER_IDS = ['u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
const DEPARTMENTS = ['d0', 'd1'];
const GROUP_IDS = ['g0', 'g1'];

interface ModelUser {
  department: string | null;
  role: Role;
  activated: boolean;
}

interface Rule {
  departments?: string[];
  roles?: Role[];
  activated?: boolean;
}

const ruleText = (rule: Rule) =>
  [
    ...(rule.departments ?? []).map((d) => `department_id:${d}`),
    ...(rule.roles ?? []).map((r) => `account_role:${r}`),
    ...(rule.activated === undefined ? [] : [`activated:${rule.activated}`]),
  ].join(',');

const matches = (rule: Rule, user: ModelUser) =>
  (!rule.departments || (user.department !== null && rule.departments.includes(user.department))) &&
  (!rule.roles || rule.roles.includes(user.role)) &&
  (rule.activated === undefined || rule.activated === user.activated);

class Model {
  users = new Map<string, ModelUser>();
  /** Each group's rule; null: a manual group (whose members the model does not follow). */
  rules = new Map<string, Rule | null>();
  matching(rule: Rule): string[] {
    return [...this.users].filter(([, user]) => matches(rule, user)).map(([id]) => id);
  }
}

interface Real {
  api: Api;
}

function expectStatus(step: string, response: ApiResponse, status: number) {
  expect(response.status, `${step} answered ${response.status} ${response.text}`).toBe(status);
}

type Command = fc.AsyncCommand<Model, Real>;

abstract class Step implements Command {
  check = () => true;
  abstract label(): string;
  abstract run(model: Model, real: Real): Promise<void>;
  toString = () => this.label();
}

class CreateUser extends Step {
  constructor(
    readonly id: string,
    readonly role: Role,
    readonly activated: boolean,
  ) {
    super();
  }
  label = () => `createUser(${this.id}, ${this.role}, ${this.activated})`;
  async run(model: Model, real: Real) {
    const body = { id: this.id, email: `${this.id}@example.com`, last_name: 'Model', account_role: this.role, activated: this.activated };
    const response = await real.api.post('/v2/users', body);
    if (model.users.has(this.id)) return expectStatus(this.label(), response, 409);
    expectStatus(this.label(), response, 201);
    model.users.set(this.id, { department: null, role: this.role, activated: this.activated });
  }
}

class PatchUser extends Step {
  constructor(
    readonly id: string,
    readonly change: { account_role?: Role; activated?: boolean },
  ) {
    super();
  }
  label = () => `patchUser(${this.id}, ${JSON.stringify(this.change)})`;
  async run(model: Model, real: Real) {
    const response = await real.api.patch(`/v2/users/${this.id}`, this.change);
    const user = model.users.get(this.id);
    if (!user) return expectStatus(this.label(), response, 404);
    expectStatus(this.label(), response, 200);
    if (this.change.account_role) user.role = this.change.account_role;
    if (this.change.activated !== undefined) user.activated = this.change.activated;
  }
}

class DeleteUser extends Step {
  constructor(readonly id: string) {
    super();
  }
  label = () => `deleteUser(${this.id})`;
  async run(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/users/${this.id}`);
    expectStatus(this.label(), response, model.users.delete(this.id) ? 204 : 404);
  }
}

/** E2 (one user) or E3 (several): a move into a department. */
class MoveUsers extends Step {
  constructor(
    readonly department: string,
    readonly ids: string[],
  ) {
    super();
  }
  label = () => `moveUsers(${this.department}, ${this.ids.join(' ')})`;
  async run(model: Model, real: Real) {
    const ids = [...new Set(this.ids)];
    const response =
      ids.length === 1
        ? await real.api.post(`/v2/departments/${this.department}/users/${ids[0]}`)
        : await real.api.post(`/v2/departments/${this.department}/users`, { user_ids: ids });
    if (ids.some((id) => !model.users.has(id))) return expectStatus(this.label(), response, 404);
    expectStatus(this.label(), response, 200);
    for (const id of ids) model.users.get(id)!.department = this.department;
  }
}

/** E4: out of its department. */
class RemoveFromDepartment extends Step {
  constructor(readonly id: string) {
    super();
  }
  label = () => `removeFromDepartment(${this.id})`;
  async run(model: Model, real: Real) {
    const user = model.users.get(this.id);
    const department = user?.department ?? 'd0';
    const response = await real.api.delete(`/v2/departments/${department}/users/${this.id}`);
    if (!user || user.department === null) return expectStatus(this.label(), response, 404);
    expectStatus(this.label(), response, 204);
    user.department = null;
  }
}

/** SCIM deprovisioning and its reverse: `active`. */
class ScimActive extends Step {
  constructor(
    readonly id: string,
    readonly active: boolean,
  ) {
    super();
  }
  label = () => `scimActive(${this.id}, ${this.active})`;
  async run(model: Model) {
    const response = await scim.patch(`/Users/${this.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', value: { active: this.active } }],
    });
    const user = model.users.get(this.id);
    if (!user) return expectStatus(this.label(), response, 404);
    expectStatus(this.label(), response, 200);
    user.activated = this.active;
  }
}

class SetRule extends Step {
  constructor(
    readonly group: string,
    readonly rule: Rule | null,
  ) {
    super();
  }
  label = () => `setRule(${this.group}, ${this.rule ? ruleText(this.rule) : 'null'})`;
  async run(model: Model, real: Real) {
    const response = await real.api.patch(`/v2/groups/${this.group}`, { rule: this.rule ? ruleText(this.rule) : null });
    if (this.rule && model.matching(this.rule).length > LIMIT) {
      expectStatus(this.label(), response, 409);
      expect(response.body.matching, this.label()).toBe(model.matching(this.rule).length);
      return;
    }
    expectStatus(this.label(), response, 200);
    if (this.rule === null && model.rules.get(this.group)) {
      // Turned off: its members stay, whatever they are once the rule has caught up; the model lets them be.
      await quiet(this.label());
    }
    model.rules.set(this.group, this.rule);
  }
}

/** G4 and SCIM's member add: refused on a rule group. */
class AddByHand extends Step {
  constructor(
    readonly group: string,
    readonly id: string,
    readonly viaScim: boolean,
  ) {
    super();
  }
  label = () => `addByHand(${this.group}, ${this.id}, ${this.viaScim ? 'SCIM' : 'G4'})`;
  async run(model: Model, real: Real) {
    if (!model.rules.get(this.group)) return; // the model follows only rule groups' members
    if (this.viaScim) {
      const response = await scim.patch(`/Groups/${this.group}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'add', path: 'members', value: [{ value: this.id }] }],
      });
      // A user already a member is no change (nothing refused); anyone else is.
      if (response.status !== 200) {
        expectStatus(this.label(), response, 400);
        expect(response.body.scimType).toBe('mutability');
      }
      return;
    }
    // A rule group refuses every hand-made change first, whoever the user (known or not), as G5 does.
    const response = await real.api.post(`/v2/groups/${this.group}/users/${this.id}`);
    expectStatus(this.label(), response, 409);
    expect(response.body.type).toBe('/problems/rule-managed');
  }
}

// ---------------------------------------------------------------------------
// Waiting for quiet, and the check

/** Until no rule work is left and no rule group is applying (at most 20 s). */
async function quiet(step: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 20_000) {
    const items = await scanTable();
    const busy = items.some((item) => item.type === 'rule-work' || item.rule_status === 'applying' || item.type === 'group-change');
    if (!busy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${step}: the rule worker did not go quiet within 20 s`);
}

async function compareRuleGroups(model: Model, real: Real, step: string) {
  await quiet(step);
  for (const [id, rule] of model.rules) {
    if (!rule) continue;
    const group = (await real.api.get(`/v2/groups/${id}`)).body;
    const members = (group.users as Array<{ id: string }>).map((u) => u.id).sort();
    const matching = model.matching(rule).sort();
    expect(group.rule, `${step}: ${id}'s rule`).toBe(ruleText(rule));
    expect(group.user_count, `${step}: ${id}'s user_count`).toBe(members.length);
    if (matching.length > LIMIT) {
      expect(group.rule_status, `${step}: ${id}'s status`).toBe('over_limit');
      expect(members.length, `${step}: ${id} holds the limit`).toBe(LIMIT);
      expect(
        members.every((m) => matching.includes(m)),
        `${step}: ${id}'s members all match`,
      ).toBe(true);
    } else {
      expect(group.rule_status, `${step}: ${id}'s status`).toBe('current');
      expect(members, `${step}: ${id}'s members`).toEqual(matching);
    }
  }
  expect(await invariantViolations(), `${step}: invariants`).toEqual([]);
}

// ---------------------------------------------------------------------------
// Commands and runs

const userId = fc.constantFrom(...USER_IDS);
const role = fc.constantFrom(...ROLES);
const rule: fc.Arbitrary<Rule> = fc
  .record(
    {
      departments: fc.uniqueArray(fc.constantFrom(...DEPARTMENTS), { minLength: 1 }).map((d) => d.sort()),
      roles: fc.uniqueArray(role, { minLength: 1, maxLength: 2 }).map((r) => ROLES.filter((x) => r.includes(x))),
      activated: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .filter((r) => Object.keys(r).length > 0);

const commands = fc.commands(
  [
    fc.tuple(userId, role, fc.boolean()).map(([id, r, a]) => new CreateUser(id, r, a)),
    fc
      .tuple(userId, fc.record({ account_role: role, activated: fc.boolean() }, { requiredKeys: [] }))
      .map(([id, c]) => new PatchUser(id, c)),
    userId.map((id) => new DeleteUser(id)),
    fc.tuple(fc.constantFrom(...DEPARTMENTS), fc.array(userId, { minLength: 1, maxLength: 3 })).map(([d, ids]) => new MoveUsers(d, ids)),
    userId.map((id) => new RemoveFromDepartment(id)),
    fc.tuple(userId, fc.boolean()).map(([id, a]) => new ScimActive(id, a)),
    fc.tuple(fc.constantFrom(...GROUP_IDS), fc.option(rule, { freq: 4 })).map(([g, r]) => new SetRule(g, r)),
    fc.tuple(fc.constantFrom(...GROUP_IDS), userId, fc.boolean()).map(([g, id, s]) => new AddByHand(g, id, s)),
  ],
  { maxCommands: 14 },
);

/** Every run starts from an empty table (the SCIM token made again), two departments and two manual groups. */
async function freshRun(model: Model, real: Real) {
  await quiet('before the run');
  await batchDelete((await scanTable()).map((item) => ({ [PARTITION_KEY]: item[PARTITION_KEY], [SORT_KEY]: item[SORT_KEY] })));
  scim = scimClient(api);
  await scim.token();
  for (const d of DEPARTMENTS) expectStatus(`department ${d}`, await real.api.post('/v2/departments', { id: d, name: d }), 201);
  for (const g of GROUP_IDS) {
    expectStatus(`group ${g}`, await real.api.post('/v2/groups', { id: g, name: g }), 201);
    model.rules.set(g, null);
  }
  for (const [i, id] of USER_IDS.slice(0, 4).entries()) await new CreateUser(id, ROLES[i], i % 2 === 0).run(model, real);
  await new MoveUsers('d0', ['u0', 'u1']).run(model, real);
}

describe('rule groups against a model', () => {
  it('members converge to exactly the users each rule matches, under any interleaving', async () => {
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const model = new Model();
        const real: Real = { api };
        await freshRun(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await compareRuleGroups(model, real, 'end of run');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 10), seed, path: process.env.FC_PATH, endOnFailure: process.env.FC_SHRINK === 'false' },
    );
  }, 600_000);
});
