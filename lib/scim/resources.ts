/**
 * The service's users and groups as SCIM resources (the mapping identity
 * providers are told to keep: docs/identity-providers.md),
 * and the `attributes` / `excludedAttributes` projection of an answer.
 */
import type { User } from '../store/users';
import { ENTERPRISE_SCHEMA, GROUP_SCHEMA, resolvePath, USER_SCHEMA } from './schema';

export type ScimResource = Record<string, unknown>;

/** `meta.version` and the ETag header: a weak tag of the resource's version. */
export const etagOf = (version: number) => `W/"${version}"`;

/** The version an If-Match names (`W/"3"`, `"3"`); undefined for `*` or none; NaN for one that is no version of ours. */
export function versionOf(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const tag = /^\s*(?:W\/)?"(\d+)"\s*$/.exec(ifMatch);
  return tag ? Number(tag[1]) : Number.NaN;
}

export function scimUser(user: User, version: number, departmentName: string | null, base: string): ScimResource {
  return {
    schemas: departmentName === null ? [USER_SCHEMA] : [USER_SCHEMA, ENTERPRISE_SCHEMA],
    id: user.id,
    ...(user.external_id === null ? {} : { externalId: user.external_id }),
    userName: user.user_name,
    name: { givenName: user.first_name, familyName: user.last_name },
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: user.activated,
    roles: [{ value: user.account_role, primary: true }],
    ...(departmentName === null ? {} : { [ENTERPRISE_SCHEMA]: { department: departmentName } }),
    meta: {
      resourceType: 'User',
      created: user.created_at,
      lastModified: user.updated_at,
      version: etagOf(version),
      location: `${base}/Users/${encodeURIComponent(user.id)}`,
    },
  };
}

export interface ScimGroupSource {
  id: string;
  name: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** `members` undefined: left out (excludedAttributes=members, where the members are not even read). */
export function scimGroup(
  group: ScimGroupSource,
  /** Without `user_name`: the member without `display` (an answer too large with it: lib/scim/groups.ts). */
  members: Array<{ id: string; user_name?: string }> | undefined,
  base: string,
): ScimResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.external_id === null ? {} : { externalId: group.external_id }),
    displayName: group.name,
    ...(members === undefined
      ? {}
      : {
          members: members.map((m) => ({
            value: m.id,
            ...(m.user_name === undefined ? {} : { display: m.user_name }),
            $ref: `${base}/Users/${encodeURIComponent(m.id)}`,
          })),
        }),
    meta: {
      resourceType: 'Group',
      created: group.created_at,
      lastModified: group.updated_at,
      version: etagOf(group.version),
      location: `${base}/Groups/${encodeURIComponent(group.id)}`,
    },
  };
}

/** Attribute names of `attributes` / `excludedAttributes` (comma-separated, any case, URN-prefixed or not). */
export function attributeList(kind: 'User' | 'Group', raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => resolvePath(kind, name)?.canonical ?? name);
}

/** Attributes always returned (RFC 7643 `returned: always`). */
const ALWAYS = new Set(['id', 'schemas', 'meta']);

/**
 * Applies `attributes` (only these, and those always returned) or
 * `excludedAttributes` (all but these) to a resource.
 */
export function project(resource: ScimResource, attributes?: string[], excluded?: string[]): ScimResource {
  if (!attributes && !excluded) return resource;
  const out: ScimResource = {};
  const wants = (name: string) => {
    const lower = name.toLowerCase();
    if (attributes) return attributes.some((a) => a.toLowerCase() === lower || a.toLowerCase().startsWith(`${lower}.`));
    return !excluded!.some((e) => e.toLowerCase() === lower);
  };
  for (const [key, value] of Object.entries(resource)) {
    if (ALWAYS.has(key)) {
      out[key] = value;
      continue;
    }
    if (key === ENTERPRISE_SCHEMA && value && typeof value === 'object') {
      const kept = Object.fromEntries(Object.entries(value).filter(([sub]) => wants(`${ENTERPRISE_SCHEMA}:${sub}`)));
      if (Object.keys(kept).length > 0) out[key] = kept;
      continue;
    }
    if (!wants(key)) continue;
    // `attributes=name.familyName` keeps only that sub-attribute.
    const subs = attributes?.filter((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}.`)).map((a) => a.slice(key.length + 1));
    if (subs?.length && value && typeof value === 'object' && !attributes!.some((a) => a.toLowerCase() === key.toLowerCase())) {
      const pick = (item: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(item).filter(([sub]) => subs.some((s) => s.toLowerCase() === sub.toLowerCase())));
      out[key] = Array.isArray(value) ? value.map((v) => pick(v as Record<string, unknown>)) : pick(value as Record<string, unknown>);
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** Whether an answer with these parameters includes the group's members (else they are not read). */
export function wantsMembers(attributes?: string[], excluded?: string[]): boolean {
  if (attributes) return attributes.some((a) => a.toLowerCase() === 'members' || a.toLowerCase().startsWith('members.'));
  return !excluded?.some((e) => e.toLowerCase() === 'members');
}
