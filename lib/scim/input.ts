/**
 * What a SCIM request body says, in the service's terms.
 *
 * `canonical` rewrites a body (or a PATCH value) as the published schemas
 * write it: attribute names in their case (Entra's validator sends
 * `UserName`, `Active`), the enterprise extension nested under its URN
 * whichever way it came, booleans from Entra's strings (`"False"`), and
 * every attribute the service does not keep — or may not be written — left
 * out. `userFields` and `groupFields` then map a canonical resource to the
 * service's fields (the reverse of resources.ts's mapping).
 */
import { ACCOUNT_ROLES, type AccountRole } from '../schemas/enums';
import { invalidValue } from './errors';
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
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidValue('The body must be a JSON object.');
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
function chosen(list: Multi, type?: string): Record<string, unknown> | undefined {
  const items = (list ?? []).filter((item) => item && typeof item === 'object');
  return (
    items.find((item) => item.primary === true) ??
    (type ? items.find((item) => typeof item.type === 'string' && item.type.toLowerCase() === type) : undefined) ??
    items[0]
  );
}

/**
 * A canonical user as the service's fields. `active` absent stays absent
 * (a PUT without it leaves the account as it is); every other attribute
 * absent takes its default.
 */
export function userFields(user: Canonical): UserFields {
  const userName = user.userName;
  if (typeof userName !== 'string' || userName.trim() === '') throw invalidValue('userName is required.');
  const email = chosen(user.emails as Multi, 'work')?.value ?? (userName.includes('@') ? userName : undefined);
  if (typeof email !== 'string' || email === '') throw invalidValue('An e-mail address is required (emails, or a userName that is one).');
  const name = (user.name ?? {}) as Canonical;
  const familyName = typeof name.familyName === 'string' && name.familyName.trim() !== '' ? name.familyName : undefined;
  const role = chosen(user.roles as Multi)?.value;
  if (role !== undefined && !(ACCOUNT_ROLES as readonly unknown[]).includes(role)) {
    throw invalidValue(`roles must be one of ${ACCOUNT_ROLES.join(', ')}; got "${String(role)}".`);
  }
  const department = (user[ENTERPRISE_SCHEMA] as Canonical | undefined)?.department;
  return {
    user_name: userName,
    external_id: typeof user.externalId === 'string' && user.externalId !== '' ? user.externalId : null,
    email,
    first_name: typeof name.givenName === 'string' ? name.givenName : '',
    last_name: familyName ?? (typeof user.displayName === 'string' && user.displayName.trim() !== '' ? user.displayName : userName),
    ...(typeof user.active === 'boolean' ? { activated: user.active } : {}),
    account_role: (role as AccountRole | undefined) ?? 'member',
    department: typeof department === 'string' && department.trim() !== '' ? department.trim() : null,
  };
}

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

export function groupFields(group: Canonical): GroupFields {
  if (typeof group.displayName !== 'string' || group.displayName.trim() === '') throw invalidValue('displayName is required.');
  return {
    name: group.displayName,
    external_id: typeof group.externalId === 'string' && group.externalId !== '' ? group.externalId : null,
    ...(group.members === undefined || group.members === null ? {} : { member_ids: [...new Set(memberIdsOf(group.members))] }),
  };
}
