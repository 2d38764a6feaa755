/**
 * The summary of a report (lib/reports/summary.ts), from rows as the worker
 * yields them: pure, no service needed (it lives with the other report
 * e-mail tests).
 */
import { describe, expect, it } from 'vitest';
import { DEPARTMENT_COLUMNS, GROUP_COLUMNS } from '../../lib/reports/csv';
import { summarize, type SummaryCell } from '../../lib/reports/summary';

type Limits = Partial<Record<'users' | 'activated_users' | 'admins' | 'managers' | 'guests' | 'seats', number>>;

/** A departments row; usage defaults to none, limits to none. */
function department(
  id: string,
  users: number,
  limits: Limits = {},
  usage: { activated?: number; admins?: number; managers?: number; guests?: number } = {},
) {
  const limit = (quota: keyof Limits) => limits[quota] ?? null;
  return [
    id,
    `Name of ${id}`,
    users,
    usage.activated ?? 0,
    usage.admins ?? 0,
    usage.managers ?? 0,
    usage.guests ?? 0,
    limit('users'),
    limit('activated_users'),
    limit('admins'),
    limit('managers'),
    limit('guests'),
    limit('seats'),
    '2026-01-01T00:00:00.000Z',
  ];
}

function groupRows(id: string, members: number): SummaryCell[][] {
  const head = [id, `Group ${id}`, 'description'];
  if (members === 0) return [[...head, null, null, null, null, null]];
  return Array.from({ length: members }, (_, i) => [...head, `u${i}`, `u${i}@example.com`, 'F', 'L', 'member']);
}

function departmentsSummary(rows: SummaryCell[][]) {
  const builder = summarize('departments', DEPARTMENT_COLUMNS);
  for (const row of rows) builder.add(row);
  const summary = builder.result();
  if (summary.type !== 'departments') throw new Error('expected a departments summary');
  return summary;
}

function groupsSummary(rows: SummaryCell[][]) {
  const builder = summarize('groups', GROUP_COLUMNS);
  for (const row of rows) builder.add(row);
  const summary = builder.result();
  if (summary.type !== 'groups') throw new Error('expected a groups summary');
  return summary;
}

describe('departments summary', () => {
  it('counts departments and people, and finds every quota at or over its limit', () => {
    const summary = departmentsSummary([
      department('none', 40),
      department('below', 9, { users: 10 }),
      department('at', 10, { users: 10 }),
      department('over', 3, { admins: 1 }, { admins: 2 }),
      department('seats', 7, { seats: 7, guests: 5 }, { guests: 5 }),
      department('zero-limit', 0, { managers: 0 }),
    ]);
    expect(summary).toMatchObject({ departments: 6, people: 69, atQuota: 4 });
    expect(summary.atQuotaListed.map((d) => [d.id, d.hits])).toEqual([
      ['over', [{ quota: 'admins', usage: 2, limit: 1 }]], // one over its limit ranks first
      ['at', [{ quota: 'users', usage: 10, limit: 10 }]],
      [
        'seats',
        [
          { quota: 'guests', usage: 5, limit: 5 },
          { quota: 'seats', usage: 7, limit: 7 },
        ],
      ],
      ['zero-limit', [{ quota: 'managers', usage: 0, limit: 0 }]],
    ]);
  });

  it('lists the five largest, ties in the order the rows came, and no empty department', () => {
    const counts = [3, 50, 7, 50, 0, 12, 1, 90, 7];
    const summary = departmentsSummary(counts.map((n, i) => department(`d${i}`, n)));
    expect(summary.largest.map((d) => [d.id, d.count])).toEqual([
      ['d7', 90],
      ['d1', 50],
      ['d3', 50],
      ['d5', 12],
      ['d2', 7],
    ]);
    expect(departmentsSummary([department('empty', 0)]).largest).toEqual([]);
  });

  it('keeps its lists short however many rows stream by', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => department(`d${i}`, i % 100, { users: 50 }));
    const summary = departmentsSummary(rows);
    expect(summary.atQuota).toBe(20_000 / 2);
    expect(summary.atQuotaListed).toHaveLength(10);
    expect(summary.atQuotaListed[0].hits[0]).toEqual({ quota: 'users', usage: 99, limit: 50 });
    expect(summary.largest).toHaveLength(5);
  });

  it('reads the CSV as written too (text cells, empty for no limit), columns by name', () => {
    const columns = [...DEPARTMENT_COLUMNS].reverse();
    const builder = summarize('departments', columns);
    builder.add(
      department('d1', 5, { users: 5 })
        .map((cell) => (cell === null ? '' : String(cell)))
        .reverse(),
    );
    expect(builder.result()).toMatchObject({
      departments: 1,
      people: 5,
      atQuota: 1,
      largest: [{ id: 'd1', name: 'Name of d1', count: 5 }],
    });
    expect(() => summarize('departments', ['department_id'])).toThrow(/no column name/);
  });
});

describe('groups summary', () => {
  it('counts groups and memberships, the largest groups and the empty ones', () => {
    const sizes = [0, 3, 1, 0, 8, 0, 3, 0, 0, 0, 2, 5];
    const summary = groupsSummary(sizes.flatMap((n, i) => groupRows(`g${i}`, n)));
    expect(summary).toMatchObject({ groups: 12, members: 22, empty: 6 });
    expect(summary.largest.map((g) => [g.id, g.count])).toEqual([
      ['g4', 8],
      ['g11', 5],
      ['g1', 3],
      ['g6', 3],
      ['g10', 2],
    ]);
    expect(summary.emptyListed.map((g) => g.id)).toEqual(['g0', 'g3', 'g5', 'g7', 'g8']);
    expect(summary.emptyListed[0].name).toBe('Group g0');
  });

  it('closes the last group in result() without changing what comes after', () => {
    const builder = summarize('groups', GROUP_COLUMNS);
    for (const row of groupRows('g1', 2)) builder.add(row);
    expect(builder.result()).toMatchObject({ groups: 1, members: 2, largest: [{ id: 'g1', count: 2 }] });
    expect(builder.result()).toMatchObject({ groups: 1, members: 2, largest: [{ id: 'g1', count: 2 }] });
    for (const row of groupRows('g2', 0)) builder.add(row);
    expect(builder.result()).toMatchObject({ groups: 2, members: 2, empty: 1, largest: [{ id: 'g1', count: 2 }] });
  });

  it('reads the empty cells of an empty group as the CSV writes them', () => {
    const summary = groupsSummary([['g1', 'Alone', '', '', '', '', '', '']]);
    expect(summary).toMatchObject({ groups: 1, members: 0, empty: 1, emptyListed: [{ id: 'g1', name: 'Alone' }] });
  });
});
