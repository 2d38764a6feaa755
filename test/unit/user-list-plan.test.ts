/**
 * The user list planner (lib/lists/users/plan.ts) and its cost model
 * (cost.ts), without DynamoDB: counters in, the chosen partitions out. Each
 * source is written `<index> <partition> [bounds] where <residual filter>`.
 *
 * The numbers are written out, not imported: a change of a constant of the
 * cost model or of an estimate must fail here. Only the sum of a Query's cost
 * and a source's margin matters to the model (10 items per source), which the
 * tie cases pin.
 */
import { describe, expect, it } from 'vitest';
import { cheapestWay, wayCost } from '../../lib/lists/users/cost';
import { planSources, type Plan } from '../../lib/lists/users/plan';
import type { ScopeView, UserFilters } from '../../lib/lists/users/scopes';
import type { Source } from '../../lib/lists/streams';
import type { UserSortField } from '../../lib/schemas/enums';

/** A department's counters: users per cell code (`<role>.<activated><logged in>`). */
const department = (cells: Record<string, number>, extra: Partial<ScopeView> = {}): ScopeView => ({
  key: { department: 'd1' },
  cells,
  wholeUsers: [Object.values(cells).reduce((a, b) => a + b, 0)],
  ...extra,
});

const describeSource = (s: Source) =>
  [
    s.query.index.name,
    s.query.partition,
    s.bounds ? `[${s.bounds.from ?? ''}..${(s.bounds.to ?? '').replace('\u{10FFFF}', '~')}]` : undefined,
    s.segment === undefined ? undefined : `segment ${s.segment}`,
    s.query.filter ? `where ${s.query.filter.expression}` : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' ');

const plan = (views: ScopeView[], filters: UserFilters, sort: UserSortField, need: number): Plan => planSources(views, filters, sort, need);
const partitions = (p: Plan) => p.sources.map(describeSource);

/** 300 logged-in members, 100 in each of three months, and 100 who never logged in. */
const THREE_MONTHS_OF_LOGINS = department(
  { 'member.11': 300, 'member.10': 100 },
  {
    logins: new Map([
      ['2026-01', 100],
      ['2026-02', 100],
      ['2026-03', 100],
    ]),
  },
);

/** Two cells of active users and two of deactivated ones, 50 each: `activated=true` selects half of the department. */
const HALF_ACTIVE = department({ 'admin.11': 50, 'admin.01': 50, 'member.11': 50, 'member.01': 50 });

const source = (expected: number, selectivity: number): Source => ({
  query: { index: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }, partition: 'P' },
  expected,
  selectivity,
});

describe('cost model', () => {
  it.each([
    // sources [expected, selectivity], items the scope needs → cost in items read
    { way: [[100, 1]], need: 20, cost: 30 }, // 10 per source + 20 read
    { way: [[100, 0.5]], need: 20, cost: 50 }, // half of what it reads passes: 40 read
    { way: [[100, 0]], need: 20, cost: 2010 }, // selectivity floored at 0.01: 100 × 20
    { way: [[100, 0.001]], need: 20, cost: 2010 },
    {
      way: [
        [30, 1],
        [10, 1],
      ],
      need: 20,
      cost: 40,
    }, // shares 15 + 5, two sources
    {
      way: [
        [0, 1],
        [0, 1],
      ],
      need: 20,
      cost: 20,
    }, // no estimate: each source priced at no share
  ])('$way for $need items costs $cost', ({ way, need, cost }) => {
    expect(
      wayCost(
        way.map(([e, s]) => source(e, s)),
        need,
      ),
    ).toBeCloseTo(cost, 9);
  });

  it('takes the cheapest way, the first of equals', () => {
    const one = [source(1, 0.5)];
    const two = [source(1, 1), source(1, 1)];
    expect(cheapestWay([one, two], 9)).toBe(one); // 28 < 29
    expect(cheapestWay([one, two], 10)).toBe(one); // 30 = 30
    expect(cheapestWay([two, one], 10)).toBe(two);
    expect(cheapestWay([one, two], 11)).toBe(two); // 32 > 31
  });

  it('compares ways that both pass under 1% by their Queries alone', () => {
    const one = [source(1, 0.001)]; // 10 + 100 × need
    const two = [source(1, 0.005), source(1, 0.005)]; // 20 + 100 × need
    expect(cheapestWay([two, one], 20)).toBe(one);
  });
});

describe('planSources: which partitions', () => {
  it.each([
    // Whole (one Query, 10 + 2 × need) against two cells (two Queries, 20 + need): break-even at need = 10.
    { need: 9, chosen: ['gsi1 DEPT#d1 where #act = :act'] },
    { need: 10, chosen: ['gsi1 DEPT#d1 where #act = :act'] }, // a tie: the whole partition is offered first
    { need: 11, chosen: ['gsi5 DEPT#d1#admin.11', 'gsi5 DEPT#d1#member.11'] },
  ])('activated=true by name, half the department active, $need items: $chosen', ({ need, chosen }) => {
    expect(partitions(plan([HALF_ACTIVE], { activated: true }, 'last_name', need))).toEqual(chosen);
  });

  it.each([
    // filters, sort, need, inactive index backfilled → sources
    {
      name: 'a rare role: its cells, not the whole department with a filter',
      view: department({ 'admin.11': 10, 'member.11': 990 }),
      filters: { roles: ['admin'] },
      sort: 'last_name',
      chosen: ['gsi5 DEPT#d1#admin.11'],
    },
    {
      name: 'a common value: the whole department with a filter, not 4 cells',
      view: department({ 'admin.11': 100, 'manager.11': 100, 'member.11': 500, 'guest.11': 100, 'member.01': 20 }),
      filters: { activated: true },
      sort: 'last_name',
      chosen: ['gsi1 DEPT#d1 where #act = :act'],
    },
    {
      name: 'activated=false by name: the deactivated index, one partition',
      view: HALF_ACTIVE,
      filters: { activated: false },
      sort: 'last_name',
      chosen: ['gsi11 DEPT#d1#OFF'],
    },
    {
      name: 'sorted by role: a segment per role, its cells by id',
      view: HALF_ACTIVE,
      filters: { roles: ['admin'] },
      sort: 'account_role',
      chosen: ['gsi7 DEPT#d1#admin.01 segment admin', 'gsi7 DEPT#d1#admin.11 segment admin'],
    },
    {
      name: 'sorted by activation: a segment per value, with the prefix as a residual filter',
      view: HALF_ACTIVE,
      filters: { lastNamePrefixes: ['sm'] },
      sort: 'activated',
      chosen: [
        'gsi7 DEPT#d1#admin.01 segment false where begins_with(#lnp, :lnp0)',
        'gsi7 DEPT#d1#admin.11 segment true where begins_with(#lnp, :lnp0)',
        'gsi7 DEPT#d1#member.01 segment false where begins_with(#lnp, :lnp0)',
        'gsi7 DEPT#d1#member.11 segment true where begins_with(#lnp, :lnp0)',
      ],
    },
    {
      name: 'name prefixes: a key range of the outermost only (sm holds smi)',
      view: department({ 'member.11': 400 }),
      filters: { lastNamePrefixes: ['sm', 'smi'] },
      sort: 'last_name',
      chosen: ['gsi1 DEPT#d1 [sm..sm~]'],
    },
    {
      name: 'a login range by name: the months in range, the boundary month filtered',
      view: THREE_MONTHS_OF_LOGINS,
      filters: { lastLogin: { kind: 'since', time: '2026-02-15T00:00:00.000Z' } },
      sort: 'last_name',
      chosen: ['gsi8 DEPT#d1#M#2026-02 where #llt >= :llt', 'gsi8 DEPT#d1#M#2026-03'],
    },
    {
      name: 'a login range by login: a key range of the logged-in cell',
      view: THREE_MONTHS_OF_LOGINS,
      filters: { lastLogin: { kind: 'since', time: '2026-02-15T00:00:00.000Z' } },
      sort: 'last_login',
      chosen: ['gsi6 DEPT#d1#member.11 [2026-02-15T00:00:00.000Z..]'],
    },
    {
      name: 'never logged in, by name: the never-logged-in cell',
      view: department({ 'member.11': 300, 'member.10': 100 }),
      filters: { lastLogin: { kind: 'never' } },
      sort: 'last_name',
      chosen: ['gsi5 DEPT#d1#member.10 where attribute_type(#ll, :llType)'],
    },
    {
      name: "a membership's cells are shared with the other membership: its own kept by a filter",
      view: {
        key: { membership: 'IN' },
        cells: { 'admin.11': 10, 'member.11': 990 },
        sharedCells: { 'admin.11': 20, 'member.11': 1990 },
        wholeUsers: [1000],
      },
      filters: { roles: ['admin'] },
      sort: 'last_name',
      chosen: ['gsi5 USERS#ALL#admin.11 where attribute_type(#mem, :memType)'],
    },
  ] as Array<{ name: string; view: ScopeView; filters: UserFilters; sort: UserSortField; chosen: string[] }>)(
    '$name',
    ({ view, filters, sort, chosen }) => {
      expect(partitions(plan([view], filters, sort, 21))).toEqual(chosen);
    },
  );

  it('reads no scope whose cells hold none of the matching users', () => {
    const empty = department({ 'member.11': 100 });
    expect(plan([empty], { roles: ['admin'] }, 'last_name', 21)).toMatchObject({ sources: [], expected: 0 });
  });
});

describe('planSources: estimates', () => {
  const months = new Map([
    ['2026-01', 100],
    ['2026-02', 100],
    ['2026-03', 100],
  ]);
  it.each([
    // The boundary month counts half: 100 (March) + 50 (half of February).
    { filters: { lastLogin: { kind: 'since', time: '2026-02-15T00:00:00.000Z' } }, expected: 150 },
    { filters: { lastLogin: { kind: 'before', time: '2026-02-15T00:00:00.000Z' } }, expected: 150 },
    // Without last-name counters, each prefix is assumed to match a tenth.
    { filters: { lastNamePrefixes: ['sm'] }, expected: 40 },
    { filters: { lastNamePrefixes: ['sm', 'jo'] }, expected: 80 },
    // With them, their counts.
    { filters: { lastNamePrefixes: ['sm'] }, prefixCounts: new Map([['sm', 12]]), expected: 12 },
    { filters: { roles: ['member'], activated: true }, expected: 400 }, // member.10 and member.11: activated
  ] as Array<{ filters: UserFilters; prefixCounts?: Map<string, number>; expected: number }>)(
    '$filters: $expected users',
    ({ filters, prefixCounts, expected }) => {
      const view = department({ 'member.11': 300, 'member.10': 100 }, { logins: months, prefixCounts });
      expect(plan([view], filters, 'last_name', 21).expected).toBeCloseTo(expected, 9);
    },
  );
});
