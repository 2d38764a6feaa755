/**
 * Which reads answer a SCIM list's filter — decided from the resolved filter
 * alone, no I/O (the callers in users.ts and groups.ts read):
 *
 * - key look-ups for the equalities identity providers send (`userName eq`,
 *   `externalId eq`, `emails[type eq "work"].value eq`, `displayName eq`,
 *   `id eq`, and conjunctions of them): each a claim or an item by key;
 * - a user list read from the indexes, for the filters they order and
 *   select by (`active eq`, `name.familyName sw`, `roles.value eq`, and
 *   conjunctions of them): lib/lists/users turns these into partitions and
 *   DynamoDB filter expressions;
 * - anything else: every resource read and the filter evaluated on each
 *   (filter.ts `matches`).
 *
 * The look-up's result is still evaluated with the whole filter (a user
 * renamed since the claim was read does not match). A conjunction with a
 * term no stored value can meet (`userName eq` 3,000 characters, an id the
 * id rule refuses, a `name.familyName sw` longer than any last name) is read
 * by no key at all: it matches nothing, and such a value would be too long
 * for a DynamoDB key.
 */
import type { UserFilters } from '../lists/users';
import { ID_PATTERN, MAX_CHARACTERS } from '../schemas/common';
import type { AccountRole } from '../schemas/enums';
import { NO_CONTROL_CHARACTERS } from '../text';
import type { Resolved } from './filter';

/** An equality on one attribute, as identity providers send them: answered by a key look-up. */
interface Equality {
  attribute: string;
  value: string;
}

/** The equalities a filter is the conjunction of, when it is nothing else (`id eq "g" and members eq "u"`). */
function equalities(filter: Resolved): Equality[] | undefined {
  const parts = filter.op === 'and' ? filter.filters : [filter];
  const found: Equality[] = [];
  for (const part of parts) {
    if (part.op === '[]') {
      // emails[type eq "work" and value eq "x"] (Entra): the address alone decides, every address is work.
      const inner = part.filter.op === 'and' ? part.filter.filters : [part.filter];
      const value = inner.find((f) => f.op === 'eq' && 'path' in f && f.path.sub?.name === 'value');
      if (!value || value.op !== 'eq' || typeof value.value !== 'string') return undefined;
      found.push({ attribute: `${part.path.attribute.name}.value`, value: value.value });
      continue;
    }
    if (part.op !== 'eq' || typeof part.value !== 'string') return undefined;
    found.push({ attribute: part.path.canonical, value: part.value });
  }
  return found;
}

/** The field rule (lib/schemas) that bounds each attribute a filter looks up by key or by prefix. */
const KEY_FIELD_RULE: Record<string, keyof typeof MAX_CHARACTERS> = {
  userName: 'userName',
  externalId: 'externalId',
  'emails.value': 'email',
  displayName: 'displayName',
  'name.familyName': 'displayName',
};

/**
 * Whether a stored value (or, for `name.familyName`, its start) can equal
 * this one: ids follow the id rule; any other value is within its field's
 * length and holds no control character, as the admin API's rules (and
 * SCIM's, which are the same) let no stored value do otherwise. Within those
 * lengths every key stays within DynamoDB's limits (2,048 bytes for a
 * partition key, 1,024 for a sort key: three bytes per code unit at most,
 * case-folded).
 */
export function canHold(attribute: string, value: string): boolean {
  if (attribute === 'id' || attribute === 'members.value') return ID_PATTERN.test(value);
  const rule = KEY_FIELD_RULE[attribute];
  return rule === undefined || (value.length <= MAX_CHARACTERS[rule] && NO_CONTROL_CHARACTERS.test(value));
}

// --- users -------------------------------------------------------------------------------

/** The claims a user attribute's value is unique by (lib/store/claims.ts). */
const USER_CLAIMS = { userName: 'user_name', externalId: 'external_id', 'emails.value': 'email' } as const;
export type UserClaim = (typeof USER_CLAIMS)[keyof typeof USER_CLAIMS];

/** One key look-up of a user: its id, or the holder of a claim. */
export type UserKey = { id: string } | { claim: UserClaim; value: string };

export type UserListRead =
  /** Users by key; the users every key finds (no key: none). */
  | { by: 'keys'; keys: UserKey[] }
  /** The user list with these filters (no filter: `{}`, every user). */
  | { by: 'index'; filters: UserFilters }
  /** Every user, the filter evaluated on each. */
  | { by: 'everyone' };

function userKeys(filter: Resolved): UserKey[] | undefined {
  const parts = equalities(filter);
  if (!parts || parts.length === 0) return undefined;
  const keys: UserKey[] = [];
  for (const { attribute, value } of parts) {
    if (attribute === 'id') keys.push({ id: value });
    else if (attribute in USER_CLAIMS) keys.push({ claim: USER_CLAIMS[attribute as keyof typeof USER_CLAIMS], value });
    else return undefined;
  }
  return parts.every(({ attribute, value }) => canHold(attribute, value)) ? keys : [];
}

/** The user list filters of a SCIM filter the indexes answer; undefined for any other. */
function indexedFilters(filter: Resolved | undefined): UserFilters | undefined {
  if (!filter) return {};
  const parts = filter.op === 'and' ? filter.filters : [filter];
  const filters: UserFilters = {};
  for (const part of parts) {
    if (part.op === 'eq' && part.path.canonical === 'active' && typeof part.value === 'boolean') filters.activated = part.value;
    else if (part.op === 'sw' && part.path.canonical === 'name.familyName' && typeof part.value === 'string' && part.value !== '') {
      filters.lastNamePrefixes = [part.value.toLowerCase()];
    } else if (part.op === 'eq' && part.path.canonical === 'roles.value' && typeof part.value === 'string') {
      // roles.value is not case-exact and roles are lower-case; a value that is no role matches no cell: an empty list.
      filters.roles = [part.value.toLowerCase() as AccountRole];
    } else return undefined;
  }
  return filters;
}

/** How GET /Users reads a filter (see the top of this file). */
export function userListRead(filter: Resolved | undefined): UserListRead {
  const keys = filter && userKeys(filter);
  if (keys) return { by: 'keys', keys };
  const filters = indexedFilters(filter);
  if (filters?.lastNamePrefixes?.some((prefix) => !canHold('name.familyName', prefix))) return { by: 'keys', keys: [] };
  return filters ? { by: 'index', filters } : { by: 'everyone' };
}

// --- groups ------------------------------------------------------------------------------

/** One key look-up of a group: its id, its external id's claim, or its name's claim. */
export type GroupKey = { id: string } | { externalId: string } | { displayName: string };

export type GroupListRead =
  /** The one group every key names, if it has every member named (none otherwise, or with no key). */
  | { by: 'keys'; keys: GroupKey[]; members: string[] }
  /** Every group, the filter evaluated on each; members read when the filter names them. */
  | { by: 'every group'; filterNeedsMembers: boolean };

/** How GET /Groups reads a filter: a `members eq` alone is no key (see the top of this file). */
export function groupListRead(filter: Resolved | undefined): GroupListRead {
  const parts = filter && equalities(filter);
  const keys: GroupKey[] = [];
  const members: string[] = [];
  for (const { attribute, value } of parts ?? []) {
    if (attribute === 'id') keys.push({ id: value });
    else if (attribute === 'externalId') keys.push({ externalId: value });
    else if (attribute === 'displayName') keys.push({ displayName: value });
    else if (attribute === 'members.value') members.push(value);
    else return { by: 'every group', filterNeedsMembers: namesMembers(filter) };
  }
  if (keys.length === 0) return { by: 'every group', filterNeedsMembers: namesMembers(filter) };
  const possible = parts!.every(({ attribute, value }) => canHold(attribute, value));
  return possible ? { by: 'keys', keys, members } : { by: 'keys', keys: [], members: [] };
}

/** Whether a filter names `members` anywhere (evaluating it then needs each group's members). */
function namesMembers(filter: Resolved | undefined): boolean {
  if (!filter) return false;
  switch (filter.op) {
    case 'and':
    case 'or':
      return filter.filters.some(namesMembers);
    case 'not':
      return namesMembers(filter.filter);
    default:
      return filter.path.attribute.name === 'members';
  }
}
