/**
 * Scale of cost: how RCU and time grow from the smaller dataset to
 * the larger (10,000 to 100,000 users in the full run), next to what the data
 * model says they should. Nothing is measured here: the rows come from the
 * list section (E1 and GET /v2/users, every parameter set, a page of 100 at
 * each size) and the reports section (G1 on a group of 10, the departments
 * and groups reports, at each of its sizes).
 *
 * The model:
 * - a page of a list reads its own page and some counters, whatever the
 *   number of users: RCU × 1 (the list section compares each size's cost
 *   over its own minimum, `rcu_ratio`);
 * - G1 reads its group, its members and their users: × 1 at the same group size;
 * - a report reads every row once: × the ratio of its rows.
 * "as model": RCU × within 20% of the model's (for a page, at most 1.2, the
 * list section's goal). Time is shown next to it: on DynamoDB Local it also
 * grows with the table (its SQLite indexes), which the model does not describe.
 */
import type { ListScaleRow } from './list-scale';
import type { G1ScaleResult, ReportResult } from './reports';
import { round } from './support/util';

export const SCALE_TOLERANCE = 1.2;

export interface ScaleRow {
  request: string;
  /** What the model says about this request's reads. */
  model: 'a page' | 'a group of 10' | 'every row';
  small_users: number;
  large_users: number;
  rcu_small: number | null;
  rcu_large: number | null;
  rcu_ratio: number | null;
  /** Milliseconds (reports: seconds ×1000) at each size, and their ratio. */
  ms_small: number | null;
  ms_large: number | null;
  ms_ratio: number | null;
  /** What RCU and time should grow by, by the model. */
  model_ratio: number;
  /** RCU × within SCALE_TOLERANCE of the model's; null when there is nothing to compare (an empty page at the smaller size). */
  as_model: boolean | null;
}

const ratioOf = (large: number | null | undefined, small: number | null | undefined) =>
  large !== null && large !== undefined && small ? round(large / small, 2) : null;

function judge(rcuRatio: number | null, model: number, page: boolean): boolean | null {
  if (rcuRatio === null) return null;
  return page ? rcuRatio <= SCALE_TOLERANCE : rcuRatio <= model * SCALE_TOLERANCE && rcuRatio >= model / SCALE_TOLERANCE;
}

export function scaleOfCost(list: ListScaleRow[], reports: ReportResult[], g1: G1ScaleResult[]): ScaleRow[] {
  const rows: ScaleRow[] = [];
  const listSizes = [...new Set(list.map((r) => r.users))].sort((a, b) => a - b);
  if (listSizes.length >= 2) {
    const [small, large] = [listSizes[0], listSizes.at(-1)!];
    const requests = [...new Set(list.filter((r) => r.operation === 'E1' || r.operation === 'listUsers').map((r) => r.request))];
    for (const request of requests) {
      const a = list.find((r) => r.request === request && r.users === small);
      const b = list.find((r) => r.request === request && r.users === large);
      if (!a || !b || !a.applicable || !b.applicable) continue;
      rows.push({
        request: request.replace(/^listUsers /, 'GET /v2/users '),
        model: 'a page',
        small_users: small,
        large_users: large,
        rcu_small: a.rcu,
        rcu_large: b.rcu,
        // The list section's ratio: each size's cost over its own minimum, the larger over the smaller.
        rcu_ratio: b.rcu_ratio,
        ms_small: a.ms,
        ms_large: b.ms,
        ms_ratio: ratioOf(b.ms, a.ms),
        model_ratio: 1,
        as_model: judge(b.rcu_ratio, 1, true),
      });
    }
  }
  const reportSizes = [...new Set(reports.map((r) => r.users))].sort((a, b) => a - b);
  if (reportSizes.length >= 2) {
    const [small, large] = [reportSizes[0], reportSizes.at(-1)!];
    const a = g1.find((r) => r.users === small);
    const b = g1.find((r) => r.users === large);
    if (a && b) {
      const rcuRatio = ratioOf(b.rcu, a.rcu);
      rows.push({
        request: `G1 (${b.members} members)`,
        model: 'a group of 10',
        small_users: small,
        large_users: large,
        rcu_small: a.rcu,
        rcu_large: b.rcu,
        rcu_ratio: rcuRatio,
        ms_small: a.ms,
        ms_large: b.ms,
        ms_ratio: ratioOf(b.ms, a.ms),
        model_ratio: 1,
        as_model: judge(rcuRatio, 1, true),
      });
    }
    for (const type of ['departments', 'groups'] as const) {
      const ra = reports.find((r) => r.type === type && r.users === small);
      const rb = reports.find((r) => r.type === type && r.users === large);
      if (!ra || !rb) continue;
      const model = round(rb.rows / ra.rows, 2);
      const rcuRatio = ratioOf(rb.rcu, ra.rcu);
      rows.push({
        request: `${type} report (${ra.rows} → ${rb.rows} rows)`,
        model: 'every row',
        small_users: small,
        large_users: large,
        rcu_small: ra.rcu,
        rcu_large: rb.rcu,
        rcu_ratio: rcuRatio,
        ms_small: round(ra.seconds * 1000, 0),
        ms_large: round(rb.seconds * 1000, 0),
        ms_ratio: ratioOf(rb.seconds, ra.seconds),
        model_ratio: model,
        as_model: judge(rcuRatio, model, false),
      });
    }
  }
  return rows;
}

export function scaleTable(rows: ScaleRow[]): { headers: string[]; lines: Array<Array<string | number>> } {
  const short = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));
  const cell = (value: number | null) => (value === null ? '-' : value);
  return {
    headers: ['request', 'users', 'RCU', 'RCU large', 'RCU ×', 'ms', 'ms large', 'ms ×', 'model', 'model ×', 'as model'],
    lines: rows.map((r) => [
      r.request,
      `${short(r.small_users)} → ${short(r.large_users)}`,
      cell(r.rcu_small),
      cell(r.rcu_large),
      cell(r.rcu_ratio),
      cell(r.ms_small),
      cell(r.ms_large),
      cell(r.ms_ratio),
      r.model,
      r.model_ratio,
      r.as_model === null ? '-' : r.as_model ? 'yes' : 'NO',
    ]),
  };
}
