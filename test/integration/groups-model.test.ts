/**
 * Model-based property test of groups.
 *
 * Random sequences of group operations (G3 with and without users, the
 * update, G6, G7, G4, G5), user operations (create, last-name change,
 * delete) and runs of the sweeper go to the service over HTTP and to an
 * in-memory model of users, groups and memberships. After every step the
 * answers agree (status, problem type, the ids the problem names) and so do G1 of
 * every group of the pool and the whole G2 list, and the invariant checker
 * finds nothing.
 *
 * The sizes of the multi-transaction paths are lowered (withGroupTuning, for the requests of this file) so that
 * a handful of users takes every path: G3 in steps, G6 through a cleanup
 * marker, memberships left for the sweeper while users are deleted and ids
 * reused. Ids and names come from small pools (names that differ only in
 * case included) so that collisions are frequent. Every run gets a fresh
 * table, so the service counters are checked exactly.
 *
 * Replay a failure with FC_SEED=<seed> FC_PATH=<path> (fast-check prints both).
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTable, LOCAL_CREDENTIALS } from '../../infra/local/services';
import { config } from '../../lib/config';
import { sweepDeletedGroups } from '../../lib/groups/cleanup';
import { withGroupTuning } from '../../lib/groups/groups';
import { useApi, type Api, type ApiResponse } from '../support/api';
import { invariantViolations } from '../support/invariants';

// Small enough that a handful of users takes every multi-transaction path.
const SMALL = { singleTransactionUsers: 1, chunkUsers: 2, chunkConcurrency: 2, inlineDeleteMembers: 1, inlineSweepMembers: 1 };
const api = useApi({ inProcess: { because: 'shrinks internal sizes around each call', around: (call) => withGroupTuning(SMALL, call) } });

// ---------------------------------------------------------------------------
// Pools

const USER_IDS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const GHOST_USER = 'ux'; // never created
const GROUP_IDS = ['g0', 'g1', 'g2'];
const GHOST_GROUP = 'gx'; // never created
const GROUP_NAMES = ['Alpha', 'alpha', 'Beta', 'BETA', 'Gamma'];
const LAST_NAMES = ['Smith', 'smith', 'Jones', 'Adams'];

const userId = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...USER_IDS) }, { weight: 1, arbitrary: fc.constant(GHOST_USER) });
const groupId = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...GROUP_IDS) }, { weight: 1, arbitrary: fc.constant(GHOST_GROUP) });
const groupName = fc.constantFrom(...GROUP_NAMES);
const lastName = fc.constantFrom(...LAST_NAMES);
const description = fc.constantFrom('', 'About', 'Line one\nline two');

// ---------------------------------------------------------------------------
// Model

interface ModelGroup {
  name: string;
  description: string;
  members: Set<string>;
}

const fold = (text: string) => text.toLowerCase();
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

class Model {
  users = new Map<string, { lastName: string }>();
  groups = new Map<string, ModelGroup>();

  nameTaken(name: string, except?: string): boolean {
    return [...this.groups].some(([id, group]) => id !== except && fold(group.name) === fold(name));
  }

  /** G1's user ids: last name case-insensitively, then id. */
  memberOrder(group: ModelGroup): string[] {
    return [...group.members].sort((a, b) => byText(fold(this.users.get(a)!.lastName), fold(this.users.get(b)!.lastName)) || byText(a, b));
  }
}

interface Real {
  api: Api;
}

const unique = <T>(items: T[]): T[] => [...new Set(items)];

function expectStatus(step: string, response: ApiResponse, status: number) {
  expect(response.status, `${step} answered ${response.status} ${response.text}`).toBe(status);
}

function expectProblem(step: string, response: ApiResponse, status: number, slug: string) {
  expectStatus(step, response, status);
  expect(response.body?.type, `${step} answered ${response.text}`).toBe(`/problems/${slug}`);
}

/** A G1-shaped body agrees with the model. */
function expectGroup(step: string, body: any, model: Model, id: string) {
  const group = model.groups.get(id)!;
  const order = model.memberOrder(group);
  expect(
    {
      id: body.id,
      name: body.name,
      description: body.description,
      user_count: body.user_count,
      users: body.users.map((u: { id: string; last_name: string }) => [u.id, u.last_name]),
    },
    step,
  ).toEqual({
    id,
    name: group.name,
    description: group.description,
    user_count: order.length,
    users: order.map((u) => [u, model.users.get(u)!.lastName]),
  });
}

/** G1 of every group of the pool and the whole G2 list agree with the model; no invariant is broken. */
async function compareAll(model: Model, real: Real, step: string) {
  const reads = await Promise.all(GROUP_IDS.map((id) => real.api.get(`/v2/groups/${id}`)));
  GROUP_IDS.forEach((id, i) => {
    if (!model.groups.has(id)) return expectProblem(`${step}: G1 ${id}`, reads[i], 404, 'not-found');
    expectStatus(`${step}: G1 ${id}`, reads[i], 200);
    expectGroup(`${step}: G1 ${id}`, reads[i].body, model, id);
  });
  const list = await real.api.get('/v2/groups?count=100');
  const expected = [...model.groups]
    .sort(([a, x], [b, y]) => byText(fold(x.name), fold(y.name)) || byText(a, b))
    .map(([id, group]) => ({ id, name: group.name, user_count: group.members.size }));
  expect(
    list.body.groups.map((g: { id: string; name: string; user_count: number }) => ({ id: g.id, name: g.name, user_count: g.user_count })),
    `${step}: G2`,
  ).toEqual(expected);
  expect(list.body.total, `${step}: G2 total`).toBe(expected.length);
  expect(await invariantViolations(), `${step}: invariants`).toEqual([]);
}

type Command = fc.AsyncCommand<Model, Real>;

abstract class Step implements Command {
  check = () => true;
  abstract label(): string;
  abstract apply(model: Model, real: Real): Promise<void>;
  async run(model: Model, real: Real) {
    await this.apply(model, real);
    await compareAll(model, real, this.label());
  }
  toString = () => this.label();
}

// ---------------------------------------------------------------------------
// Commands

class CreateUser extends Step {
  constructor(
    readonly id: string,
    readonly lastName: string,
  ) {
    super();
  }
  label = () => `createUser(${this.id}, ${this.lastName})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.post('/v2/users', { id: this.id, email: `${this.id}@example.com`, last_name: this.lastName });
    if (model.users.has(this.id)) return expectProblem(this.label(), response, 409, 'conflict');
    expectStatus(this.label(), response, 201);
    model.users.set(this.id, { lastName: this.lastName });
  }
}

class RenameUser extends Step {
  constructor(
    readonly id: string,
    readonly lastName: string,
  ) {
    super();
  }
  label = () => `renameUser(${this.id}, ${this.lastName})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.patch(`/v2/users/${this.id}`, { last_name: this.lastName });
    if (!model.users.has(this.id)) return expectProblem(this.label(), response, 404, 'not-found');
    expectStatus(this.label(), response, 200);
    model.users.get(this.id)!.lastName = this.lastName;
  }
}

class DeleteUser extends Step {
  constructor(readonly id: string) {
    super();
  }
  label = () => `deleteUser(${this.id})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/users/${this.id}`);
    if (!model.users.has(this.id)) return expectProblem(this.label(), response, 404, 'not-found');
    expectStatus(this.label(), response, 204);
    model.users.delete(this.id);
    for (const group of model.groups.values()) group.members.delete(this.id);
  }
}

class CreateGroup extends Step {
  constructor(
    readonly id: string,
    readonly name: string,
    readonly description: string | undefined,
    readonly userIds: string[] | undefined,
  ) {
    super();
  }
  label = () => `G3(${this.id}, ${this.name}, ${JSON.stringify(this.description)}, ${this.userIds ? `[${this.userIds}]` : '-'})`;
  async apply(model: Model, real: Real) {
    const body = { id: this.id, name: this.name, description: this.description, user_ids: this.userIds };
    const response = await real.api.post('/v2/groups', body);
    // the order of lib/groups/create.ts: unknown users (read first), then id, then name.
    const missing = unique(this.userIds ?? []).filter((u) => !model.users.has(u));
    if (missing.length > 0) {
      expectProblem(this.label(), response, 404, 'not-found');
      expect(response.body.missing_user_ids, this.label()).toEqual(missing);
      return;
    }
    if (model.groups.has(this.id) || model.nameTaken(this.name)) return expectProblem(this.label(), response, 409, 'conflict');
    expectStatus(this.label(), response, 201);
    model.groups.set(this.id, { name: this.name, description: this.description ?? '', members: new Set(this.userIds ?? []) });
    expectGroup(this.label(), response.body, model, this.id);
  }
}

class UpdateGroup extends Step {
  constructor(
    readonly id: string,
    readonly patch: { name?: string; description?: string },
  ) {
    super();
  }
  label = () => `updateGroup(${this.id}, ${JSON.stringify(this.patch)})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.patch(`/v2/groups/${this.id}`, this.patch);
    const group = model.groups.get(this.id);
    if (!group) return expectProblem(this.label(), response, 404, 'not-found');
    if (this.patch.name !== undefined && model.nameTaken(this.patch.name, this.id)) {
      return expectProblem(this.label(), response, 409, 'conflict');
    }
    expectStatus(this.label(), response, 200);
    Object.assign(group, this.patch);
    expectGroup(this.label(), response.body, model, this.id);
  }
}

class DeleteGroup extends Step {
  constructor(readonly id: string) {
    super();
  }
  label = () => `G6(${this.id})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/groups/${this.id}`);
    if (!model.groups.has(this.id)) return expectProblem(this.label(), response, 404, 'not-found');
    expectStatus(this.label(), response, 204);
    model.groups.delete(this.id);
  }
}

class DeleteGroups extends Step {
  constructor(readonly ids: string[]) {
    super();
  }
  label = () => `G7([${this.ids}])`;
  async apply(model: Model, real: Real) {
    const response = await real.api.delete('/v2/groups', { group_ids: this.ids });
    const missing = unique(this.ids).filter((id) => !model.groups.has(id));
    if (missing.length > 0) {
      expectProblem(this.label(), response, 404, 'not-found');
      expect(response.body.missing_group_ids, this.label()).toEqual(missing);
      return;
    }
    expectStatus(this.label(), response, 204);
    for (const id of this.ids) model.groups.delete(id);
  }
}

class AddMember extends Step {
  constructor(
    readonly groupId: string,
    readonly userId: string,
  ) {
    super();
  }
  label = () => `G4(${this.groupId}, ${this.userId})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.post(`/v2/groups/${this.groupId}/users/${this.userId}`);
    const group = model.groups.get(this.groupId);
    if (!group || !model.users.has(this.userId)) return expectProblem(this.label(), response, 404, 'not-found');
    expectStatus(this.label(), response, 200);
    expect(response.body.id, this.label()).toBe(this.userId);
    group.members.add(this.userId);
  }
}

class RemoveMember extends Step {
  constructor(
    readonly groupId: string,
    readonly userId: string,
  ) {
    super();
  }
  label = () => `G5(${this.groupId}, ${this.userId})`;
  async apply(model: Model, real: Real) {
    const response = await real.api.delete(`/v2/groups/${this.groupId}/users/${this.userId}`);
    const group = model.groups.get(this.groupId);
    if (!group) return expectProblem(this.label(), response, 404, 'not-found');
    if (group.members.delete(this.userId)) return expectStatus(this.label(), response, 204);
    if (!model.users.has(this.userId)) return expectProblem(this.label(), response, 404, 'not-found');
    expectProblem(this.label(), response, 404, 'not-a-member');
    expect(response.body.user_ids, this.label()).toEqual([this.userId]);
  }
}

class Sweep extends Step {
  label = () => 'sweepDeletedGroups()';
  async apply() {
    await sweepDeletedGroups();
  }
}

const commandArbitraries: fc.Arbitrary<Command>[] = [
  fc.tuple(fc.constantFrom(...USER_IDS), lastName).map(([id, name]) => new CreateUser(id, name)),
  fc.tuple(userId, lastName).map(([id, name]) => new RenameUser(id, name)),
  userId.map((id) => new DeleteUser(id)),
  fc
    .tuple(
      fc.constantFrom(...GROUP_IDS),
      groupName,
      fc.option(description, { nil: undefined }),
      fc.option(fc.array(userId, { maxLength: 5 }), { nil: undefined }),
    )
    .map(([id, name, text, users]) => new CreateGroup(id, name, text, users)),
  fc
    .tuple(fc.constantFrom(...GROUP_IDS), groupName, fc.array(fc.constantFrom(...USER_IDS), { minLength: 2, maxLength: 5 }))
    .map(([id, name, users]) => new CreateGroup(id, name, undefined, users)),
  fc
    .tuple(groupId, fc.option(groupName, { nil: undefined }), fc.option(description, { nil: undefined }))
    .filter(([, name, text]) => name !== undefined || text !== undefined)
    .map(
      ([id, name, text]) =>
        new UpdateGroup(id, { ...(name !== undefined ? { name } : {}), ...(text !== undefined ? { description: text } : {}) }),
    ),
  groupId.map((id) => new DeleteGroup(id)),
  fc.array(groupId, { minLength: 1, maxLength: 3 }).map((ids) => new DeleteGroups(ids)),
  fc.tuple(groupId, userId).map(([g, u]) => new AddMember(g, u)),
  fc.tuple(groupId, userId).map(([g, u]) => new AddMember(g, u)),
  fc.tuple(groupId, userId).map(([g, u]) => new RemoveMember(g, u)),
  fc.constant(new Sweep()),
];
const commands = fc.commands(commandArbitraries, { maxCommands: 25, size: 'max' });

// ---------------------------------------------------------------------------
// Runs

const services = inject('services');
const fileTable = process.env.TABLE_NAME!;
const runTables: string[] = [];
let runs = 0;

async function dropTable(name: string) {
  const client = new DynamoDBClient({ endpoint: services.endpoints.dynamodb, region: config().region, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new DeleteTableCommand({ TableName: name }));
  } finally {
    client.destroy();
  }
}

/** Points the service (and the invariant checker) at a fresh, empty table: the handlers here, the deployed functions by a redeploy. */
async function freshTable() {
  const previous = runTables.pop();
  if (previous) await dropTable(previous);
  const name = `${fileTable}-run${++runs}`;
  await createTable(services.endpoints.dynamodb, name);
  runTables.push(name);
  process.env.TABLE_NAME = name;
  await api.redeploy({ tableName: name });
}

afterAll(async () => {
  for (const name of runTables.splice(0)) await dropTable(name);
  process.env.TABLE_NAME = fileTable;
});

/** Every run starts from a few users and one group, so that most steps find something to act on. */
const PRELUDE: Step[] = [
  new CreateUser('u0', 'Smith'),
  new CreateUser('u1', 'adams'),
  new CreateUser('u2', 'Jones'),
  new CreateUser('u3', 'smith'),
  new CreateUser('u4', 'Jones'),
  new CreateGroup('g0', 'Alpha', undefined, ['u0', 'u1', 'u2']),
];

describe('groups against a model', () => {
  it('agrees with the model after every step of random operation sequences', async () => {
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        await freshTable();
        const model = new Model();
        const real: Real = { api };
        for (const step of PRELUDE) await step.apply(model, real);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await sweepDeletedGroups();
        await compareAll(model, real, 'end of run, swept');
      }),
      { numRuns: 20, seed, path: process.env.FC_PATH },
    );
  }, 240_000);
});
