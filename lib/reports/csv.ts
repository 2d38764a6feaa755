/**
 * The CSV of each report type: its columns and its rows, read page by page
 * from the indexes as the CSV is written (never all in memory).
 */
import { stringify, type Stringifier } from 'csv-stringify';
import { queryStream } from '../db/query';
import { limitsOf } from '../departments/quotas';
import { membersOf } from '../groups/groups';
import type { ReportType } from '../schemas/enums';
import { departmentList, toDepartment } from '../store/departments';
import { groupList, toGroup } from '../store/groups';

export type Cell = string | number | null;
export type Row = Cell[];

export const DEPARTMENT_COLUMNS = [
  'department_id',
  'name',
  'user_count',
  'activated_users',
  'admins',
  'managers',
  'guests',
  'users_limit',
  'activated_users_limit',
  'admins_limit',
  'managers_limit',
  'guests_limit',
  'seats_limit',
  'created_at',
] as const;

export const GROUP_COLUMNS = [
  'group_id',
  'group_name',
  'group_description',
  'user_id',
  'email',
  'first_name',
  'last_name',
  'account_role',
] as const;

/** Spreadsheets run a cell that starts with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that a spreadsheet would run as a formula gets a leading apostrophe. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A CSV writer as the contract asks: header row, RFC 4180 quoting, CRLF, formulas neutralised, null as an empty cell. */
export function csvWriter(columns: readonly string[]): Stringifier {
  return stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    quoted_match: /[",\r\n]/,
    cast: { string: neutralizeFormula },
  });
}

export async function* departmentRows(): AsyncGenerator<Row> {
  for await (const item of queryStream(departmentList.byName(), { pageSize: 500 })) {
    const department = toDepartment(item);
    const { usage } = department;
    const limits = limitsOf(department);
    yield [
      department.id,
      department.name,
      usage.users,
      usage.activated_users,
      usage.admins,
      usage.managers,
      usage.guests,
      limits.users,
      limits.activated_users,
      limits.admins,
      limits.managers,
      limits.guests,
      limits.seats,
      department.created_at,
    ];
  }
}

/** One row per group and member (members by last name, then id); a group without members has one row with empty user cells. */
export async function* groupRows(): AsyncGenerator<Row> {
  for await (const item of queryStream(groupList.byName(), { pageSize: 500 })) {
    const group = toGroup(item);
    const head: Row = [group.id, group.name, group.description];
    const members = await membersOf(group);
    if (members.length === 0) yield [...head, null, null, null, null, null];
    for (const user of members) yield [...head, user.id, user.email, user.first_name, user.last_name, user.account_role];
  }
}

export const REPORT_SOURCES: Record<ReportType, { columns: readonly string[]; rows: () => AsyncIterable<Row> }> = {
  departments: { columns: DEPARTMENT_COLUMNS, rows: departmentRows },
  groups: { columns: GROUP_COLUMNS, rows: groupRows },
};
