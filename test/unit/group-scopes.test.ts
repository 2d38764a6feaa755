/**
 * The console's sign-in rule: a person's admin scopes come from their user-pool groups (lib/auth/group-scopes.ts),
 * applied to the access token by the pre-token-generation trigger (functions/accessTokenScopes.ts).
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/accessTokenScopes';
import { ADMIN_SCOPES, SCOPE_GROUPS, scopesOfGroups, withheldScopes } from '../../lib/auth/group-scopes';
import { requiredScope } from '../../lib/routes';

describe('scopes of groups', () => {
  it('covers exactly the scopes the routes demand', () => {
    expect([...ADMIN_SCOPES].sort()).toEqual([requiredScope('read'), requiredScope('write')].sort());
  });

  it('gives admins read and write, readers read only, anyone else nothing', () => {
    expect(scopesOfGroups(['admins'])).toEqual(['admin/read', 'admin/write']);
    expect(scopesOfGroups(['readers'])).toEqual(['admin/read']);
    expect(scopesOfGroups([])).toEqual([]);
    expect(scopesOfGroups(['auditors', 'Admins', 'admin', ' readers'])).toEqual([]);
  });

  it('gives a person in both groups the union, once each', () => {
    expect(scopesOfGroups(['readers', 'admins', 'readers'])).toEqual(['admin/read', 'admin/write']);
  });

  it('reads no inherited property as a group', () => {
    expect(scopesOfGroups(['constructor', 'toString', '__proto__', 'hasOwnProperty'])).toEqual([]);
  });

  it('withholds every admin scope the groups do not give', () => {
    expect(withheldScopes(['admins'])).toEqual([]);
    expect(withheldScopes(['readers'])).toEqual(['admin/write']);
    expect(withheldScopes([])).toEqual(['admin/read', 'admin/write']);
    expect(withheldScopes(['everyone'])).toEqual(['admin/read', 'admin/write']);
  });

  it('names the groups the contract names', () => {
    expect(Object.keys(SCOPE_GROUPS).sort()).toEqual(['admins', 'readers']);
  });
});

/** A V2_0 event as Cognito sends it for a hosted-login sign-in that asked for these scopes. */
function signIn(groups: string[] | undefined, scopes: string[]): PreTokenGenerationV2TriggerEvent {
  return {
    version: '2',
    triggerSource: 'TokenGeneration_HostedAuth',
    region: 'us-east-1',
    userPoolId: 'us-east-1_pool',
    userName: 'ada',
    callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'console-client' },
    request: { userAttributes: { sub: 'ada' }, groupConfiguration: { groupsToOverride: groups, iamRolesToOverride: [] }, scopes },
    response: { claimsAndScopeOverrideDetails: {} },
  } as PreTokenGenerationV2TriggerEvent;
}

/** The scopes the access token ends with: those asked for, less those suppressed, plus those added. */
async function tokenScopes(groups: string[] | undefined, asked: string[]): Promise<string[]> {
  const { response } = await handler(signIn(groups, asked));
  const changes = response.claimsAndScopeOverrideDetails.accessTokenGeneration ?? {};
  return [...asked.filter((scope) => !(changes.scopesToSuppress ?? []).includes(scope)), ...(changes.scopesToAdd ?? [])].sort();
}

describe('the pre-token-generation trigger', () => {
  const asked = ['openid', 'admin/read', 'admin/write'];

  it('leaves an admin both scopes', async () => {
    expect(await tokenScopes(['admins'], asked)).toEqual(['admin/read', 'admin/write', 'openid']);
  });

  it('takes admin/write from a reader who asks for it', async () => {
    expect(await tokenScopes(['readers'], asked)).toEqual(['admin/read', 'openid']);
  });

  it('takes every admin scope from a person in neither group, or in no group at all', async () => {
    expect(await tokenScopes(['staff'], asked)).toEqual(['openid']);
    expect(await tokenScopes(undefined, asked)).toEqual(['openid']);
  });

  it('adds no scope that was not asked for', async () => {
    expect(await tokenScopes(['admins'], ['openid', 'admin/read'])).toEqual(['admin/read', 'openid']);
  });
});
