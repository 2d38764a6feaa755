/**
 * What the reader of a report e-mail wants to know first, worked out from
 * the CSV rows as the worker streams them: counters and a few short ranked
 * lists, so memory stays the same whatever the number of rows.
 *
 * Pure: rows in (in the CSV's column order, typed cells or the CSV's own
 * text), a summary out. No I/O, so it is tested on its own.
 */
import type { ReportType } from './jobs';

/** A cell as the worker yields it (number, string, null) or as the CSV spells it ('' for null). */
export type SummaryCell = string | number | null;

/** Length of the "largest" and "empty groups" lists. */
export const LISTED = 5;
/** Length of the list of departments at a quota limit: the ones a reader must act on, so a little longer. */
export const AT_QUOTA_LISTED = 10;

export interface NamedCount {
  id: string;
  name: string;
  count: number;
}

export interface QuotaHit {
  quota: QuotaLabel;
  usage: number;
  limit: number;
}

export interface DepartmentAtQuota {
  id: string;
  name: string;
  hits: QuotaHit[];
}

export interface DepartmentsSummary {
  type: 'departments';
  departments: number;
  /** Members of all departments (user_count summed: a user is in at most one department). */
  people: number;
  /** Departments with at least one quota whose usage is at or over its limit. */
  atQuota: number;
  /** The first AT_QUOTA_LISTED of them, furthest over a limit first. */
  atQuotaListed: DepartmentAtQuota[];
  /** The LISTED departments with the most users, largest first (none with no users). */
  largest: NamedCount[];
}

export interface GroupsSummary {
  type: 'groups';
  groups: number;
  /**
   * Rows with a user: a person in two groups counts twice. Distinct people
   * would need memory that grows with them, so the summary does not count them.
   */
  members: number;
  /** The LISTED groups with the most members, largest first. */
  largest: NamedCount[];
  /** Groups without members, and the first LISTED of them in the CSV's order (by name). */
  empty: number;
  emptyListed: Array<{ id: string; name: string }>;
}

export type ReportSummary = DepartmentsSummary | GroupsSummary;

export interface SummaryBuilder {
  /** One CSV row (header excluded), in the order of the columns given to `summarize`. */
  add(row: readonly SummaryCell[]): void;
  /** The summary of the rows added so far. */
  result(): ReportSummary;
}

/** Quota as the e-mail names it, with the CSV columns of its usage and its limit (seats count every user). */
const QUOTAS = [
  { quota: 'users', usage: 'user_count', limit: 'users_limit' },
  { quota: 'activated users', usage: 'activated_users', limit: 'activated_users_limit' },
  { quota: 'admins', usage: 'admins', limit: 'admins_limit' },
  { quota: 'managers', usage: 'managers', limit: 'managers_limit' },
  { quota: 'guests', usage: 'guests', limit: 'guests_limit' },
  { quota: 'seats', usage: 'user_count', limit: 'seats_limit' },
] as const;
export type QuotaLabel = (typeof QUOTAS)[number]['quota'];

const text = (cell: SummaryCell | undefined): string => (cell === null || cell === undefined ? '' : String(cell));
const count = (cell: SummaryCell | undefined): number => (text(cell) === '' ? 0 : Number(cell));
const limit = (cell: SummaryCell | undefined): number | null => (text(cell) === '' ? null : Number(cell));

/**
 * Inserts `item` into `list` (kept sorted, at most `size` long) unless it ranks
 * after all of them; `ahead(a, b)` says a ranks strictly before b, so ties keep
 * the order in which rows came (by name).
 */
function keepTop<T>(list: T[], item: T, size: number, ahead: (a: T, b: T) => boolean): void {
  let at = list.length;
  while (at > 0 && ahead(item, list[at - 1])) at--;
  if (at >= size) return;
  list.splice(at, 0, item);
  if (list.length > size) list.pop();
}

const larger = (a: NamedCount, b: NamedCount) => a.count > b.count;

/** Position of each named column, so a reordered CSV cannot shift the numbers. */
function columnIndex(columns: readonly string[]) {
  return (name: string): number => {
    const at = columns.indexOf(name);
    if (at < 0) throw new Error(`the report has no column ${name}`);
    return at;
  };
}

function departmentsSummary(columns: readonly string[]): SummaryBuilder {
  const column = columnIndex(columns);
  const [id, name, users] = [column('department_id'), column('name'), column('user_count')];
  const quotas = QUOTAS.map((q) => ({ quota: q.quota, usage: column(q.usage), limit: column(q.limit) }));
  const summary: DepartmentsSummary = { type: 'departments', departments: 0, people: 0, atQuota: 0, atQuotaListed: [], largest: [] };
  const overBy = (department: DepartmentAtQuota) => Math.max(...department.hits.map((hit) => hit.usage - hit.limit));

  return {
    add(row) {
      summary.departments++;
      const department = { id: text(row[id]), name: text(row[name]) };
      const userCount = count(row[users]);
      summary.people += userCount;
      if (userCount > 0) keepTop(summary.largest, { ...department, count: userCount }, LISTED, larger);
      const hits: QuotaHit[] = [];
      for (const quota of quotas) {
        const max = limit(row[quota.limit]);
        const usage = count(row[quota.usage]);
        if (max !== null && usage >= max) hits.push({ quota: quota.quota, usage, limit: max });
      }
      if (hits.length === 0) return;
      summary.atQuota++;
      keepTop(summary.atQuotaListed, { ...department, hits }, AT_QUOTA_LISTED, (a, b) => overBy(a) > overBy(b));
    },
    result: () => structuredClone(summary),
  };
}

/** Rows of a group come together (csv.ts writes them group by group), so one group is open at a time. */
function groupsSummary(columns: readonly string[]): SummaryBuilder {
  const column = columnIndex(columns);
  const [id, name, user] = [column('group_id'), column('group_name'), column('user_id')];
  const summary: GroupsSummary = { type: 'groups', groups: 0, members: 0, largest: [], empty: 0, emptyListed: [] };
  let open: NamedCount | undefined;

  const close = (into: GroupsSummary, group: NamedCount) => {
    if (group.count > 0) keepTop(into.largest, { ...group }, LISTED, larger);
    else if (++into.empty <= LISTED) into.emptyListed.push({ id: group.id, name: group.name });
  };

  return {
    add(row) {
      const groupId = text(row[id]);
      if (open?.id !== groupId) {
        if (open) close(summary, open);
        open = { id: groupId, name: text(row[name]), count: 0 };
        summary.groups++;
      }
      if (text(row[user]) !== '') {
        open.count++;
        summary.members++;
      }
    },
    result() {
      const result = structuredClone(summary);
      if (open) close(result, open);
      return result;
    },
  };
}

/** A builder for the summary of a report of this type whose rows have these columns. */
export function summarize(type: ReportType, columns: readonly string[]): SummaryBuilder {
  return type === 'departments' ? departmentsSummary(columns) : groupsSummary(columns);
}
