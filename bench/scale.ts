/**
 * Scale of cost: how RCU and time grow from the smaller dataset to the larger, next to what the data model says
 * (docs/performance.md "Scale of cost"); nothing is measured here. "as model": RCU × within 20% of the model's (a page:
 * at most 1.2).
 */
import type { ListScaleRow } from './list-scale';
import type { G1ScaleResult, ReportResult } from './reports';
import { round, sizeLabel } from './support/util';

const TOLERANCE = 1.2;

type Model = 'a page' | 'a group of 10' | 'every row';
export type ScaleRow = ReturnType<typeof row>;

const ratioOf = (large: number | null | undefined, small: number | null | undefined) =>
  large !== null && large !== undefined && small ? round(large / small, 2) : null;

type Side = { users: number; rcu: number | null; ms: number | null };

/** `ms`: reports' seconds × 1000; `as_model` null when there is nothing to compare (an empty page at the smaller size). */
function row(request: string, model: Model, a: Side, b: Side, modelRatio: number, rcuRatio = ratioOf(b.rcu, a.rcu)) {
  const asModel =
    rcuRatio === null
      ? null
      : model === 'every row'
        ? rcuRatio <= modelRatio * TOLERANCE && rcuRatio >= modelRatio / TOLERANCE
        : rcuRatio <= TOLERANCE;
  return {
    request,
    model,
    ...{ small_users: a.users, large_users: b.users, rcu_small: a.rcu, rcu_large: b.rcu, rcu_ratio: rcuRatio },
    ...{ ms_small: a.ms, ms_large: b.ms, ms_ratio: ratioOf(b.ms, a.ms), model_ratio: modelRatio, as_model: asModel },
  };
}

const extremes = (sizes: number[]) => [Math.min(...sizes), Math.max(...sizes)];

export function scaleOfCost(list: ListScaleRow[], reports: ReportResult[], g1: G1ScaleResult[]): ScaleRow[] {
  const rows: ScaleRow[] = [];
  const [smallList, largeList] = extremes(list.map((r) => r.users));
  for (const b of list.filter((r) => r.users === largeList && largeList > smallList && ['E1', 'listUsers'].includes(r.operation))) {
    const a = list.find((r) => r.request === b.request && r.users === smallList);
    if (a?.applicable && b.applicable) rows.push(row(b.request.replace(/^listUsers /, 'GET /v2/users '), 'a page', a, b, 1, b.rcu_ratio));
  }
  const [small, large] = extremes(reports.map((r) => r.users));
  if (!(large > small)) return rows;
  const [g1a, g1b] = [g1.find((r) => r.users === small), g1.find((r) => r.users === large)];
  if (g1a && g1b) rows.push(row(`G1 (${g1b.members} members)`, 'a group of 10', g1a, g1b, 1));
  for (const type of ['departments', 'groups'] as const) {
    const [a, b] = [small, large].map((users) => reports.find((r) => r.type === type && r.users === users));
    if (!a || !b) continue;
    const side = (r: ReportResult) => ({ users: r.users, rcu: r.rcu, ms: round(r.seconds * 1000, 0) });
    rows.push(row(`${type} report (${a.rows} → ${b.rows} rows)`, 'every row', side(a), side(b), round(b.rows / a.rows, 2)));
  }
  return rows;
}

export const scaleTable = (rows: ScaleRow[]) =>
  rows.map((r) => ({ ...r, users: `${sizeLabel(r.small_users)} → ${sizeLabel(r.large_users)}`, as_model: r.as_model ?? '-' }));
