/**
 * SCIM's /Users: each request one change of the service's user, with every
 * rule of the admin API (claims, quotas, one department per user, audit with
 * actor `scim:<token>`), all or nothing.
 */
import { createHash } from 'node:crypto';
import type { ChangeContext } from '../audit/context';
import { listStoredUsers, type UserListRequest } from '../lists/users';
import { notFound } from '../problems';
import { claimHolder } from '../store/claims';
import { keepCursor, keptCursor } from '../store/scim-pages';
import { departmentNames, findDepartment } from '../store/departments';
import { findUser, findUsers, type StoredUser, type User } from '../store/users';
import { changeUser, createUser, deleteUser, type UserFieldsChange } from '../users/commands';
import { resolveDepartment } from './departments';
import { invalidValue } from './errors';
import { matches, parseFilter } from './filter';
import { userListRead, type UserKey } from './filter-reads';
import { canonical, userFields, type Canonical, type UserFields } from './input';
import { applyToUser, normalizeOperations, touchesExtension } from './patch';
import { scimUser, type ScimResource } from './resources';
import { ENTERPRISE_SCHEMA } from './schema';

/** Where resources live, for `meta.location`: `https://host/scim/v2`. */
export type Base = string;

/** A user as a SCIM request leaves it, with its department's name when the request already knows it. */
export interface ProvisionedUser {
  user: StoredUser;
  /** undefined: not known yet, read for the answer. */
  departmentName?: string | null;
}

/** The name of the user's department, for an answer (eventually consistent: a department's name rarely changes). */
async function departmentNameOf(user: User): Promise<string | null> {
  if (!user.department_id) return null;
  return (await findDepartment(user.department_id, false))?.name ?? null;
}

export async function asScimUser({ user, departmentName }: ProvisionedUser, base: Base): Promise<ScimResource> {
  return scimUser(user, user.version, departmentName === undefined ? await departmentNameOf(user) : departmentName, base);
}

/** Many users as resources, their departments' names read together. */
export async function asScimUsers(users: StoredUser[], base: Base): Promise<ScimResource[]> {
  const names = await departmentNames(users.flatMap((u) => (u.department_id ? [u.department_id] : [])));
  return users.map((user) => scimUser(user, user.version, user.department_id ? (names.get(user.department_id) ?? null) : null, base));
}

/** The service's change for the fields a SCIM resource sets: the department resolved, `activated` only when given. */
async function changeFor(ctx: ChangeContext, fields: UserFields): Promise<{ change: UserFieldsChange; departmentName: string | null }> {
  const { department, ...rest } = fields;
  if (department === null) return { change: { ...rest, department_id: null }, departmentName: null };
  const resolved = await resolveDepartment(ctx, department);
  return { change: { ...rest, department_id: resolved.id }, departmentName: resolved.name };
}

export async function createScimUser(ctx: ChangeContext, body: unknown): Promise<ProvisionedUser> {
  const fields = userFields(canonical('User', body));
  const { change, departmentName } = await changeFor(ctx, fields);
  const user = await createUser(ctx, { ...change, activated: change.activated ?? true, email: fields.email, last_name: fields.last_name });
  return { user, departmentName };
}

/** A PUT: the values it leaves as they are are not checked again (userFields), hence the fields are made from the user read. */
export async function replaceScimUser(ctx: ChangeContext, id: string, body: unknown, expectedVersion?: number): Promise<ProvisionedUser> {
  const resource = canonical('User', body);
  let departmentName: string | null = null;
  const user = await changeUser(
    ctx,
    id,
    async (before) => {
      const changed = await changeFor(ctx, userFields(resource, before));
      departmentName = changed.departmentName;
      return changed.change;
    },
    expectedVersion,
  );
  return { user, departmentName };
}

/** The user as a canonical SCIM resource: what PATCH operations apply to. */
function canonicalOf(user: User, departmentName: string | null): Canonical {
  return {
    userName: user.user_name,
    ...(user.external_id === null ? {} : { externalId: user.external_id }),
    name: { givenName: user.first_name, familyName: user.last_name },
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: user.activated,
    roles: [{ value: user.account_role, primary: true }],
    ...(departmentName === null ? {} : { [ENTERPRISE_SCHEMA]: { department: departmentName } }),
  };
}

/**
 * Applies the operations to the user as it is. Only operations on the
 * enterprise extension need the department's name (an `active` PATCH reads
 * the user alone); the department is then resolved only if it changed.
 */
export async function patchScimUser(ctx: ChangeContext, id: string, body: unknown, expectedVersion?: number): Promise<ProvisionedUser> {
  const operations = normalizeOperations(body);
  const touchesDepartment = touchesExtension(operations);
  let departmentName: string | null | undefined;
  const user = await changeUser(
    ctx,
    id,
    async (before) => {
      const current = touchesDepartment ? await departmentNameOf(before) : null;
      const { department, ...rest } = userFields(applyToUser(canonicalOf(before, current), operations), { ...before, department: current });
      // Untouched, or named as it is: the department stays, without a look-up.
      if (!touchesDepartment || (department !== null && before.department_id && department === current)) {
        departmentName = touchesDepartment ? current : undefined;
        return { ...rest, department_id: before.department_id };
      }
      const changed = await changeFor(ctx, { ...rest, department });
      departmentName = changed.departmentName;
      return changed.change;
    },
    expectedVersion,
  );
  return { user, departmentName };
}

export async function deleteScimUser(ctx: ChangeContext, id: string, expectedVersion?: number): Promise<void> {
  await deleteUser(ctx, id, expectedVersion);
}

export async function getScimUser(id: string): Promise<ProvisionedUser> {
  const user = await findUser(id);
  if (!user) throw notFound('User', id);
  return { user };
}

// --- lists -------------------------------------------------------------------------------

export interface ListRequest {
  filter?: string;
  /** 1-based. */
  startIndex: number;
  count: number;
  /** Who pages (the token): pages are remembered per client and filter (lib/store/scim-pages.ts). */
  client: string;
}

/** The users every key finds (the look-ups identity providers send). */
async function lookUp(keys: UserKey[]): Promise<StoredUser[]> {
  if (keys.length === 0) return []; // a filter no stored value can meet (filter-reads.ts)
  let ids: Set<string> | undefined;
  for (const key of keys) {
    const id = 'id' in key ? key.id : await claimHolder(key.claim, key.value, false);
    const found = new Set(id === undefined ? [] : [id]);
    ids = ids ? new Set([...ids].filter((x) => found.has(x))) : found;
  }
  const users = await findUsers([...ids!]);
  // The claim found the user; the filter, evaluated on it, decides (a user renamed since the claim was read).
  return [...users.values()];
}

const SORT: UserListRequest['sort'] = { field: 'last_name', direction: 'asc' };
/** The deepest offset a list reads (docs/lists-at-scale.md); deeper pages come by the cursor the page before left. */
const MAX_OFFSET = 10_000;

/**
 * GET /Users: equality look-ups by key, indexed filters from the user list
 * (a page costs its own items), anything else by reading every user and
 * filtering (its cost is that of the whole list; the document says so).
 */
export async function listScimUsers(
  request: ListRequest,
  base: Base,
): Promise<{ resources: ScimResource[]; total: number; cursor?: string }> {
  const filter = request.filter === undefined ? undefined : parseFilter('User', request.filter);
  const read = userListRead(filter);
  if (read.by === 'keys') {
    const resources = await asScimUsers(await lookUp(read.keys), base);
    const matching = resources.filter((r) => matches(filter!, r));
    return { resources: matching.slice(request.startIndex - 1, request.startIndex - 1 + request.count), total: matching.length };
  }
  if (read.by === 'index') {
    const list = createHash('sha256')
      .update(`${request.client}|users|${request.filter?.trim() ?? ''}`)
      .digest('base64url');
    const cursor = request.startIndex > 1 ? await keptCursor(list, request.startIndex) : undefined;
    if (!cursor && request.startIndex - 1 > MAX_OFFSET) {
      throw invalidValue(
        `A startIndex above ${MAX_OFFSET + 1} is reached by paging to it in order (each page remembers where the next starts).`,
      );
    }
    const page = await listStoredUsers(
      { kind: 'all' },
      {
        count: request.count,
        offset: cursor ? 0 : request.startIndex - 1,
        cursor,
        sort: SORT,
        filters: read.filters,
        membershipFirst: true,
      },
    );
    if (page.next_cursor) await keepCursor(list, request.startIndex + page.users.length, page.next_cursor);
    return { resources: await asScimUsers(page.users, base), total: page.total };
  }
  // Any other filter: every user, filtered here.
  const everyone = await allUsers();
  const resources = (await asScimUsers(everyone, base)).filter((r) => matches(filter!, r));
  return { resources: resources.slice(request.startIndex - 1, request.startIndex - 1 + request.count), total: resources.length };
}

async function allUsers(): Promise<StoredUser[]> {
  const users: StoredUser[] = [];
  let cursor: string | undefined;
  do {
    const page = await listStoredUsers({ kind: 'all' }, { count: 1000, offset: 0, cursor, sort: SORT, filters: {}, membershipFirst: true });
    users.push(...page.users);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return users;
}
