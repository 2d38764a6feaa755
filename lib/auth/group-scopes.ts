/**
 * Which admin scopes a person signed in through the stack's Cognito user pool
 * may hold: those of the pool's groups they are in (`admins`: read and write,
 * `readers`: read), and no other. The pre-token-generation trigger
 * (functions/accessTokenScopes.ts) applies it to every access token the pool
 * issues a person, and the stack makes the groups from this table. Like
 * routes.ts, this module has no runtime dependencies.
 */
import { RESOURCE_SERVER_ID, SCOPE_NAMES } from '../routes';

/**
 * The user pool's pre-token-generation trigger: its construct id in the stack and its module under functions/. It
 * runs on AWS only: the local gateway checks its own tokens and never asks it.
 */
export const ACCESS_TOKEN_TRIGGER = {
  name: 'AccessTokenScopes',
  handler: 'accessTokenScopes',
  summary: "Cognito pre-token-generation trigger: a person's admin scopes from their groups (lib/auth/group-scopes.ts)",
} as const;

const READ = `${RESOURCE_SERVER_ID}/${SCOPE_NAMES.read}`;
const WRITE = `${RESOURCE_SERVER_ID}/${SCOPE_NAMES.write}`;

/** Every scope the API's routes demand (lib/routes.ts `requiredScope`). */
export const ADMIN_SCOPES: readonly string[] = [READ, WRITE];

/** The user-pool groups that give admin scopes, with what each gives: the only list of them. */
export const SCOPE_GROUPS = {
  admins: { scopes: [READ, WRITE], description: 'Read and change everything through the console and the API (admin/read, admin/write)' },
  readers: { scopes: [READ], description: 'Read everything through the console and the API, change nothing (admin/read)' },
} as const satisfies Record<string, { scopes: readonly string[]; description: string }>;

export type ScopeGroup = keyof typeof SCOPE_GROUPS;

const isScopeGroup = (name: string): name is ScopeGroup => Object.hasOwn(SCOPE_GROUPS, name);

/** The admin scopes these groups give together; none for a person in neither group. */
export function scopesOfGroups(groups: readonly string[]): string[] {
  const granted = new Set(groups.filter(isScopeGroup).flatMap((group) => SCOPE_GROUPS[group].scopes));
  return ADMIN_SCOPES.filter((scope) => granted.has(scope));
}

/**
 * The admin scopes an access token of a person in these groups must not carry, whether the sign-in asked for them
 * or not: a reader who asks for admin/write gets admin/read only, a person in neither group no admin scope at all.
 */
export function withheldScopes(groups: readonly string[]): string[] {
  const granted = scopesOfGroups(groups);
  return ADMIN_SCOPES.filter((scope) => !granted.includes(scope));
}
