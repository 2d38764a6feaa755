/**
 * What a SCIM request body says, in the service's terms.
 *
 * `canonical` rewrites a body (or a PATCH value) as the published schemas
 * write it: attribute names in their case (Entra's validator sends
 * `UserName`, `Active`), the enterprise extension nested under its URN
 * whichever way it came, booleans from Entra's strings (`"False"`), and
 * every attribute the service does not keep — or may not be written — left
 * out. `userFields` and `groupFields` then map a canonical resource to the
 * service's fields (the reverse of resources.ts's mapping), and those are
 * held to the admin API's own request schemas (lib/schemas): a value one door
 * refuses the other refuses too, here as a 400 `invalidValue` that names the
 * SCIM attribute it came from.
 */
import { safeParse } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { updateDepartmentBody } from '../schemas/departments';
import type { AccountRole } from '../schemas/enums';
import { createGroupBody, groupUserIds, updateGroupBody } from '../schemas/groups';
import { userFieldsChange } from '../schemas/users';
import { invalidSyntax, invalidValue } from './errors';
import { ENTERPRISE_SCHEMA, resolvePath, type Attribute } from './schema';

export type Canonical = Record<string, unknown>;
type Kind = 'User' | 'Group';

/** A boolean as Entra may send it. */
export function toBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalidValue(`${what} must be a boolean.`);
}

/** One value of an attribute, in canonical form (undefined: nothing the service keeps). */
export function canonicalValue(attribute: Attribute, value: unknown, what = attribute.name): unknown {
  if (value === null) return null;
  if (attribute.multiValued && Array.isArray(value))
    return value.map((item) => canonicalValue({ ...attribute, multiValued: false }, item, what));
  switch (attribute.type) {
    case 'boolean':
      return toBoolean(value, what);
    case 'complex': {
      if (typeof value !== 'object' || Array.isArray(value)) throw invalidValue(`${what} must be an object.`);
      const out: Canonical = {};
      for (const [key, sub] of Object.entries(value as Record<string, unknown>)) {
        const found = attribute.subAttributes?.find((a) => a.name.toLowerCase() === key.toLowerCase());
        if (found && found.mutability !== 'readOnly') out[found.name] = canonicalValue(found, sub, `${what}.${found.name}`);
      }
      return out;
    }
    default:
      if (typeof value !== 'string') throw invalidValue(`${what} must be a string.`);
      return value;
  }
}

/** Sets a canonical attribute (path resolved) on `target`, the extension's under its URN. */
function assign(target: Canonical, schema: string, attribute: Attribute, value: unknown): void {
  const holder = schema === ENTERPRISE_SCHEMA ? ((target[ENTERPRISE_SCHEMA] ??= {}) as Canonical) : target;
  holder[attribute.name] = value;
}

/** A whole resource body in canonical form. */
export function canonical(kind: Kind, body: unknown): Canonical {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidSyntax('The body must be a JSON object.');
  const out: Canonical = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    // The extension as one object: `{"urn:…:enterprise:2.0:User": {"department": "x"}}`.
    if (kind === 'User' && key.toLowerCase() === ENTERPRISE_SCHEMA.toLowerCase()) {
      if (value === null || typeof value !== 'object') continue;
      for (const [sub, subValue] of Object.entries(value as Record<string, unknown>)) {
        const path = resolvePath(kind, `${ENTERPRISE_SCHEMA}:${sub}`);
        if (path && !path.sub) assign(out, path.schema, path.attribute, canonicalValue(path.attribute, subValue));
      }
      continue;
    }
    const path = resolvePath(kind, key);
    if (!path || path.attribute.mutability === 'readOnly' || path.attribute.name === 'meta') continue; // not kept, or not writable
    if (path.sub) {
      // A dotted key (`name.givenName`), as Entra may send on a path-less PATCH.
      const parent = ((out[path.attribute.name] as Canonical | undefined) ??= {});
      parent[path.sub.name] = canonicalValue(path.sub, value, path.canonical);
      continue;
    }
    assign(out, path.schema, path.attribute, canonicalValue(path.attribute, value));
  }
  // displayName is not kept, but it is the last name of a user who is given no family name.
  if (kind === 'User') {
    const displayName = Object.entries(body as Record<string, unknown>).find(([key]) => key.toLowerCase() === 'displayname')?.[1];
    if (typeof displayName === 'string') out.displayName = displayName;
  }
  return out;
}

// --- users -------------------------------------------------------------------------------

/** The service's fields of a user that a SCIM resource sets. */
export interface UserFields {
  user_name: string;
  external_id: string | null;
  email: string;
  first_name: string;
  last_name: string;
  activated?: boolean;
  account_role: AccountRole;
  /** The enterprise `department` as given: a department id or name; null: none. */
  department: string | null;
}

type Multi = Array<Record<string, unknown>> | undefined;

/** The primary element, else the first of type `type`, else the first. */
function chosen(list: unknown, what: string, type?: string): Record<string, unknown> | undefined {
  if (list !== undefined && list !== null && !Array.isArray(list)) throw invalidValue(`${what} must be a list.`);
  const items = ((list ?? []) as NonNullable<Multi>).filter((item) => item && typeof item === 'object');
  return (
    items.find((item) => item.primary === true) ??
    (type ? items.find((item) => typeof item.type === 'string' && item.type.toLowerCase() === type) : undefined) ??
    items[0]
  );
}

/**
 * A canonical user as the service's fields, each held to the admin API's
 * rules (see checkUserFields). `active` absent stays absent (a PUT without
 * it leaves the account as it is); every other attribute absent takes its
 * default. `before`: the user a PUT or PATCH changes, whose values it leaves
 * as they are are not checked again.
 */
export function userFields(user: Canonical, before?: Partial<UserFields>): UserFields {
  const userName = user.userName;
  if (typeof userName !== 'string' || userName.trim() === '') throw invalidValue('userName is required.');
  const listed = chosen(user.emails, 'emails', 'work')?.value;
  const email = listed ?? (userName.includes('@') ? userName : undefined);
  if (typeof email !== 'string' || email === '') throw invalidValue('An e-mail address is required (emails, or a userName that is one).');
  const name = (user.name ?? {}) as Canonical;
  const familyName = typeof name.familyName === 'string' && name.familyName.trim() !== '' ? name.familyName : undefined;
  const displayName = typeof user.displayName === 'string' && user.displayName.trim() !== '' ? user.displayName : undefined;
  const role = chosen(user.roles, 'roles')?.value;
  const department = (user[ENTERPRISE_SCHEMA] as Canonical | undefined)?.department;
  const fields: UserFields = {
    user_name: userName,
    external_id: typeof user.externalId === 'string' && user.externalId !== '' ? user.externalId : null,
    email,
    first_name: typeof name.givenName === 'string' ? name.givenName : '',
    last_name: familyName ?? displayName ?? userName,
    ...(typeof user.active === 'boolean' ? { activated: user.active } : {}),
    account_role: (role as AccountRole | undefined) ?? 'member',
    department: typeof department === 'string' && department.trim() !== '' ? department.trim() : null,
  };
  const attributes: Record<keyof UserFields, string> = {
    ...USER_ATTRIBUTES,
    email: listed === undefined ? 'userName (the e-mail address when emails has none)' : 'emails.value',
    last_name: familyName
      ? 'name.familyName'
      : `${displayName ? 'displayName' : 'userName'} (the family name when name.familyName is absent)`,
  };
  checkUserFields(fields, attributes, before);
  return fields;
}

/** The SCIM attribute each field of the service comes from. */
const USER_ATTRIBUTES: Record<keyof UserFields, string> = {
  user_name: 'userName',
  external_id: 'externalId',
  email: 'emails.value',
  first_name: 'name.givenName',
  last_name: 'name.familyName',
  activated: 'active',
  account_role: 'roles.value',
  department: `${ENTERPRISE_SCHEMA}:department`,
};

/**
 * Holds the fields to the admin API's own schemas, so that a value either
 * door refuses the other refuses too: the user's to the fields of PATCH
 * /v2/users/{id} (those of POST /v2/users, field by field), a change's only
 * in the values it changes, so that a value stored before these rules does
 * not block a deactivation; the department, a name or an id, to a
 * department name's.
 */
function checkUserFields(fields: UserFields, attributes: Record<keyof UserFields, string>, before?: Partial<UserFields>): void {
  const { department, ...service } = fields;
  const given = Object.fromEntries(
    Object.entries(service).filter(([key, value]) => value !== undefined && (!before || value !== before[key as keyof UserFields])),
  );
  checkFields(userFieldsChange, given, ([field]) => attributes[field as keyof UserFields]);
  if (department !== null && department !== before?.department) {
    checkFields(updateDepartmentBody, { name: department }, () => attributes.department);
  }
}

/**
 * Checks `fields` with a schema of the admin API; what it refuses is a 400
 * `invalidValue` naming the SCIM attribute of each refused value (a few of
 * them: a list of 20,000 bad member ids is not repeated back).
 */
function checkFields(schema: $ZodType, value: unknown, attributeOf: (path: readonly PropertyKey[]) => string): void {
  const result = safeParse(schema, value);
  if (result.success) return;
  const issues = result.error.issues;
  const shown = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => `${attributeOf(issue.path)}: ${issue.message}`);
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  throw invalidValue(shown.join('; '));
}

const MAX_ISSUES_SHOWN = 5;

// --- groups ------------------------------------------------------------------------------

export interface GroupFields {
  name: string;
  external_id: string | null;
  /** Member ids; undefined when the body names none. */
  member_ids?: string[];
}

export function memberIdsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = (member as { value?: unknown } | null)?.value;
    if (typeof id !== 'string' || id === '') throw invalidValue('Each member needs a value: the user id.');
    return id;
  });
}

/** A canonical group as the service's fields (checkNewGroup, checkMemberIds and checkGroupChange hold them to the admin API's rules). */
export function groupFields(group: Canonical): GroupFields {
  if (typeof group.displayName !== 'string' || group.displayName.trim() === '') throw invalidValue('displayName is required.');
  return {
    name: group.displayName,
    external_id: typeof group.externalId === 'string' && group.externalId !== '' ? group.externalId : null,
    ...(group.members === undefined || group.members === null ? {} : { member_ids: [...new Set(memberIdsOf(group.members))] }),
  };
}

/** A new group, held to POST /v2/groups's schema (its members as user_ids). */
export function checkNewGroup({ member_ids, ...rest }: GroupFields): void {
  checkFields(createGroupBody, { ...rest, ...(member_ids ? { user_ids: member_ids } : {}) }, ([field, index]) =>
    groupAttribute(String(field), typeof index === 'number' ? member_ids?.[index] : undefined),
  );
}

/** A new name or external id of a group (only what differs from the group's), held to PATCH /v2/groups/{id}'s schema. */
export function checkGroupChange(change: { name?: string; external_id?: string | null }): void {
  const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  checkFields(updateGroupBody, given, ([field]) => groupAttribute(String(field)));
}

/** Member ids added or removed: user ids, as many as POST /v2/groups takes. */
export function checkMemberIds(ids: Iterable<string>): void {
  const list = [...ids];
  checkFields(groupUserIds, list, ([index]) => groupAttribute('user_ids', typeof index === 'number' ? list[index] : undefined));
}

const GROUP_ATTRIBUTES: Record<string, string> = { name: 'displayName', external_id: 'externalId', user_ids: 'members' };

/** The SCIM attribute of a group's field; a member by its value (shortened: it may be thousands of characters). */
function groupAttribute(field: string, member?: string): string {
  if (member === undefined) return GROUP_ATTRIBUTES[field] ?? field;
  return `members[value eq ${JSON.stringify(shortened(member))}]`;
}

/** A value a caller sent, for an error's detail: its start, when it is long. */
export const shortened = (value: string): string => (value.length > 70 ? `${value.slice(0, 64)}… (${value.length} characters)` : value);
