/**
 * SCIM filters without DynamoDB, step by step: the parser's syntax tree
 * (filter-syntax.ts; its own tests are scim-filter-syntax.test.ts), names
 * resolved and evaluated (filter.ts), and which reads a list's filter takes
 * (filter-reads.ts) down to the partitions and DynamoDB filter expressions
 * the user list planner makes of it.
 */
import { describe, expect, it } from 'vitest';
import { planSources } from '../../lib/lists/users/plan';
import type { ScopeView } from '../../lib/lists/users/scopes';
import { matches, parseFilter, type Resolved } from '../../lib/scim/filter';
import { canHold, groupListRead, userListRead } from '../../lib/scim/filter-reads';
import { parseSyntax } from '../../lib/scim/filter-syntax';

describe('parser step', () => {
  it.each([
    { text: 'userName eq "bjensen"', tree: { op: 'eq', attrPath: 'userName', compValue: 'bjensen' } },
    { text: 'active eq false', tree: { op: 'eq', attrPath: 'active', compValue: false } },
    { text: 'title pr', tree: { op: 'pr', attrPath: 'title' } },
    {
      text: 'a eq 1 and b eq 2 and c eq 3',
      tree: {
        op: 'and',
        filters: [
          { op: 'eq', attrPath: 'a', compValue: 1 },
          { op: 'eq', attrPath: 'b', compValue: 2 },
          { op: 'eq', attrPath: 'c', compValue: 3 },
        ],
      },
    },
    {
      text: 'not (a eq "x") or b sw "y"',
      tree: {
        op: 'or',
        filters: [
          { op: 'not', filter: { op: 'eq', attrPath: 'a', compValue: 'x' } },
          { op: 'sw', attrPath: 'b', compValue: 'y' },
        ],
      },
    },
    {
      text: 'emails[type eq "work"]',
      tree: { op: '[]', attrPath: 'emails', valFilter: { op: 'eq', attrPath: 'type', compValue: 'work' } },
    },
  ])('$text', ({ text, tree }) => {
    expect(parseSyntax(text)).toEqual(tree);
  });

  it.each(['userName eq', 'userName "x"', 'userName eq "x" and', '(userName eq "x"'])('refuses %j', (text) => {
    expect(() => parseSyntax(text)).toThrow();
  });
});

describe('names resolved against the schemas', () => {
  const canonicalPaths = (filter: Resolved): string[] => {
    if ('filters' in filter) return filter.filters.flatMap(canonicalPaths);
    if (filter.op === 'not') return canonicalPaths(filter.filter);
    if (filter.op === '[]') return [`${filter.path.canonical}[${canonicalPaths(filter.filter).join(',')}]`];
    return [filter.path.canonical];
  };

  it.each([
    { kind: 'User', text: 'USERNAME eq "x"', paths: ['userName'] },
    { kind: 'User', text: 'name.FamilyName sw "s"', paths: ['name.familyName'] },
    { kind: 'User', text: 'emails co "@x"', paths: ['emails.value'] }, // a complex attribute means its value
    { kind: 'User', text: 'emails[Type eq "work" and value co "@x"]', paths: ['emails[emails.type,emails.value]'] },
    // Entra's value path outside the grammar, read as the one it means.
    { kind: 'User', text: 'emails[type eq "work"].value eq "a@x"', paths: ['emails[emails.type,emails.value]'] },
    { kind: 'Group', text: 'members eq "u1"', paths: ['members.value'] },
    { kind: 'Group', text: 'displayname eq "Eng" and not (externalId pr)', paths: ['displayName', 'externalId'] },
  ] as const)('$kind: $text', ({ kind, text, paths }) => {
    expect(canonicalPaths(parseFilter(kind, text))).toEqual(paths);
  });

  it.each([
    { kind: 'User', text: 'shoeSize eq 3' },
    { kind: 'User', text: 'userName eq' },
    { kind: 'User', text: 'userName[value eq "x"]' },
    { kind: 'Group', text: 'members[value eq "u" and display[value eq "x"]]' },
  ] as const)('$kind: $text is 400 invalidFilter', ({ kind, text }) => {
    expect(() => parseFilter(kind, text)).toThrow(expect.objectContaining({ scimType: 'invalidFilter', status: 400 }));
  });
});

describe('evaluated on a resource', () => {
  const user = {
    id: 'U1',
    userName: 'Bjensen@Example.com',
    externalId: 'Ext-1',
    name: { givenName: 'Barbara', familyName: 'Jensen' },
    emails: [
      { value: 'bj@example.com', type: 'work', primary: true },
      { value: 'home@example.org', type: 'home' },
    ],
    active: true,
    roles: [{ value: 'admin', primary: true }],
    meta: { created: '2026-01-02T03:04:05.000Z' },
  };
  it.each([
    ['userName eq "bjensen@example.com"', true], // not caseExact
    ['id eq "u1"', false], // caseExact
    ['externalId eq "ext-1"', false], // caseExact
    ['name.familyName sw "JEN"', true],
    ['name.familyName ew "sen"', true],
    ['name.givenName co "arb"', true],
    ['name.givenName ne "Barbara"', false],
    ['name.familyName pr', true],
    ['active eq true', true],
    ['active eq "true"', true], // Entra sends booleans as strings
    ['active ne true', false],
    ['active gt true', false], // no order on booleans
    ['meta.created gt "2026-01-01T00:00:00Z"', true], // dateTime: compared as instants
    ['meta.created gt "2026-01-02T03:04:05Z"', false], // equal: not greater
    ['name.familyName gt "JENSEN"', false], // equal, case aside
    ['name.familyName ge "jensen"', true],
    ['name.familyName gt "jense"', true],
    ['name.familyName lt "jensen"', false],
    ['name.familyName lt "jensf"', true],
    ['name.familyName le "JENSEN"', true],
    ['name.familyName eq "JENSEN"', true],
    ['meta.created lt "2026-01-02T03:04:05Z"', false],
    ['meta.created le "2026-01-02T03:04:05Z"', true],
    ['meta.created ge "2026-01-02T04:00:00+01:00"', true],
    ['emails co "example.org"', true], // any element
    ['emails[type eq "work" and value co "example.org"]', false], // one element must hold both
    ['emails[type eq "home" and value co "example.org"]', true],
    ['emails[type eq "work"].value eq "home@example.org"', false], // Entra's form: the work address
    ['emails[type eq "work"].value eq "bj@example.com"', true],
    ['roles.value eq "admin" and not (active eq false)', true],
    ['userName eq "x" or roles eq "ADMIN"', true],
  ])('%s → %s', (text, expected) => {
    expect(matches(parseFilter('User', text), user)).toBe(expected);
  });

  const { externalId: _externalId, ...withoutExternalId } = user;
  it.each([
    ['externalId ne "x"', true], // absent: every `ne` holds
    ['externalId eq "x"', false],
    ['externalId pr', false],
    ['not (externalId pr)', true],
  ])('without an externalId, %s → %s', (text, expected) => {
    expect(matches(parseFilter('User', text), withoutExternalId)).toBe(expected);
  });
});

describe('which reads GET /Users takes', () => {
  it.each([
    { filter: undefined, read: { by: 'index', filters: {} } },
    { filter: 'userName eq "Bob@x.com"', read: { by: 'keys', keys: [{ claim: 'user_name', value: 'Bob@x.com' }] } },
    { filter: 'externalId eq "e1"', read: { by: 'keys', keys: [{ claim: 'external_id', value: 'e1' }] } },
    { filter: 'emails[type eq "work"].value eq "a@x"', read: { by: 'keys', keys: [{ claim: 'email', value: 'a@x' }] } },
    { filter: 'emails[type eq "work" and value eq "a@x"]', read: { by: 'keys', keys: [{ claim: 'email', value: 'a@x' }] } },
    { filter: 'emails eq "a@x"', read: { by: 'keys', keys: [{ claim: 'email', value: 'a@x' }] } },
    {
      filter: 'id eq "u1" and userName eq "b"',
      read: { by: 'keys', keys: [{ id: 'u1' }, { claim: 'user_name', value: 'b' }] },
    },
    { filter: 'active eq true', read: { by: 'index', filters: { activated: true } } },
    { filter: 'name.familyName sw "Sm"', read: { by: 'index', filters: { lastNamePrefixes: ['sm'] } } },
    { filter: 'roles.value eq "admin"', read: { by: 'index', filters: { roles: ['admin'] } } },
    // roles.value is not case-exact: "Admin" is the admins.
    { filter: 'roles.value eq "Admin"', read: { by: 'index', filters: { roles: ['admin'] } } },
    { filter: 'roles eq "guest"', read: { by: 'index', filters: { roles: ['guest'] } } },
    {
      filter: 'active eq false and name.familyName sw "O\'Br"',
      read: { by: 'index', filters: { activated: false, lastNamePrefixes: ["o'br"] } },
    },
    { filter: 'name.familyName sw ""', read: { by: 'everyone' } },
    { filter: 'name.familyName co "sm"', read: { by: 'everyone' } },
    { filter: 'name.familyName eq "Smith"', read: { by: 'everyone' } },
    { filter: 'active eq "true"', read: { by: 'everyone' } }, // a string: no index
    { filter: 'active ne true', read: { by: 'everyone' } },
    { filter: 'userName eq "a" or userName eq "b"', read: { by: 'everyone' } },
    { filter: 'userName eq "a" and active eq true', read: { by: 'everyone' } },
    { filter: 'emails[type eq "work"]', read: { by: 'everyone' } },
    { filter: 'not (active eq true)', read: { by: 'everyone' } },
  ])('$filter', ({ filter, read }) => {
    expect(userListRead(filter === undefined ? undefined : parseFilter('User', filter))).toEqual(read);
  });

  it('an indexed filter becomes partitions and DynamoDB filter expressions', () => {
    // Everyone: members of a department and the others, 100 deactivated of 1,000 in two cells.
    const everyone: ScopeView = {
      key: { everyone: true },
      cells: { 'member.11': 600, 'member.01': 60, 'admin.11': 300, 'admin.00': 40 },
      wholeUsers: [700, 300],
      prefixCounts: new Map([['sm', 30]]),
    };
    const read = userListRead(parseFilter('User', 'active eq false and name.familyName sw "Sm"'));
    expect(read).toEqual({ by: 'index', filters: { activated: false, lastNamePrefixes: ['sm'] } });
    const plan = planSources([everyone], read.by === 'index' ? read.filters : {}, 'last_name', 101);
    expect(
      plan.sources.map((s) => ({ index: s.query.index.name, partition: s.query.partition, bounds: s.bounds, filter: s.query.filter })),
    ).toEqual([{ index: 'gsi11', partition: 'USERS#ALL#OFF', bounds: { from: 'sm', to: 'sm\u{10FFFF}' }, filter: undefined }]);
    const roles = userListRead(parseFilter('User', 'roles.value eq "admin"'));
    const byRole = planSources(
      [{ ...everyone, cells: { 'member.11': 990, 'admin.11': 10 } }],
      roles.by === 'index' ? roles.filters : {},
      'last_name',
      101,
    );
    expect(byRole.sources.map((s) => [s.query.index.name, s.query.partition, s.query.filter])).toEqual([
      ['gsi5', 'USERS#ALL#admin.11', undefined],
    ]);
    // 900 of 1,000 active in four cells: both whole partitions (20 + 101 / 0.9 items) beat four cells (40 + 101).
    const active = userListRead(parseFilter('User', 'active eq true'));
    const spread = { 'member.11': 500, 'member.10': 100, 'admin.11': 200, 'admin.10': 100, 'member.01': 50, 'admin.00': 50 };
    const common = planSources([{ ...everyone, cells: spread }], active.by === 'index' ? active.filters : {}, 'last_name', 101);
    expect(common.sources.map((s) => [s.query.partition, s.query.filter])).toEqual([
      ['USERS#IN', { expression: '#act = :act', names: { '#act': 'activated' }, values: { ':act': true } }],
      ['USERS#OUT', { expression: '#act = :act', names: { '#act': 'activated' }, values: { ':act': true } }],
    ]);
  });
});

describe('which reads GET /Groups takes', () => {
  it.each([
    { filter: undefined, read: { by: 'every group', filterNeedsMembers: false } },
    { filter: 'displayName eq "Eng"', read: { by: 'keys', keys: [{ displayName: 'Eng' }], members: [] } },
    { filter: 'externalId eq "e1"', read: { by: 'keys', keys: [{ externalId: 'e1' }], members: [] } },
    {
      filter: 'id eq "g1" and members eq "u1" and members.value eq "u2"',
      read: { by: 'keys', keys: [{ id: 'g1' }], members: ['u1', 'u2'] },
    },
    { filter: 'members eq "u1"', read: { by: 'every group', filterNeedsMembers: true } },
    { filter: 'members[value eq "u1"]', read: { by: 'every group', filterNeedsMembers: true } },
    { filter: 'not (members pr)', read: { by: 'every group', filterNeedsMembers: true } },
    { filter: 'displayName co "En"', read: { by: 'every group', filterNeedsMembers: false } },
    { filter: 'displayName co "members"', read: { by: 'every group', filterNeedsMembers: false } },
    { filter: 'displayName eq "Eng" or id eq "g1"', read: { by: 'every group', filterNeedsMembers: false } },
    { filter: 'displayName eq "Eng" and meta.created gt "2026-01-01T00:00:00Z"', read: { by: 'every group', filterNeedsMembers: false } },
  ])('$filter', ({ filter, read }) => {
    expect(groupListRead(filter === undefined ? undefined : parseFilter('Group', filter))).toEqual(read);
  });
});

describe('canHold: whether a stored value can equal a looked-up one', () => {
  it.each([
    { attribute: 'id', value: 'x'.repeat(65), stored: false },
    { attribute: 'id', value: 'ann_1', stored: true },
    { attribute: 'userName', value: 'x'.repeat(256), stored: false },
    { attribute: 'emails.value', value: 'ann@example.com', stored: true },
    { attribute: 'name.familyName', value: 'L\u0001', stored: false },
    { attribute: 'displayName', value: 'g'.repeat(201), stored: false },
    { attribute: 'externalId', value: 'grp-1', stored: true },
  ])('$attribute: $stored', ({ attribute, value, stored }) => {
    expect(canHold(attribute, value)).toBe(stored);
  });
});
