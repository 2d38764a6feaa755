/**
 * What the document says of parameters beyond their request schemas, for
 * generators, validating proxies and generated collections: the set of
 * `sort` values, the syntax of `query`, `last_login` and the exports'
 * `email` as patterns, and an example for every parameter. Built from the
 * same lists and patterns the parsers use (lib/schemas/enums.ts,
 * lib/http/list-params.ts, lib/reports/recipients.ts); test/unit/openapi.test.ts
 * checks each against its parser. Docs-only, like operations.ts.
 */
import { LOGIN_TIME } from '../http/list-params';
import { ADDRESS, MAX_RECIPIENTS } from '../reports/recipients';
import { ID_PATTERN } from '../schemas/common';
import { ACCOUNT_ROLES, SORT_DIRECTIONS } from '../schemas/enums';

type Json = Record<string, unknown>;

/** `asc`, `desc`, then each field alone and with each direction. */
export function sortValues(fields: readonly string[]): string[] {
  return [...SORT_DIRECTIONS, ...fields.flatMap((field) => [field, ...SORT_DIRECTIONS.map((direction) => `${field}:${direction}`)])];
}

export const sortSchema = (fields: readonly string[]): Json => ({ type: 'string', enum: sortValues(fields) });

/** The body of a regular expression, without its anchors. */
const inner = (pattern: RegExp) => pattern.source.replace(/^\^/, '').replace(/\$$/, '');

/**
 * `attr:value[,attr:value...]`, each attribute with the values it takes (a
 * regular expression body, none of which can hold a comma).
 */
export function filterPattern(values: Readonly<Record<string, string>>): string {
  const term = `(?:${Object.entries(values)
    .map(([attribute, value]) => `${attribute}:(?:${value})`)
    .join('|')})`;
  return `^${term}(?:,${term})*$`;
}

/** Values of filter attributes, as the list parsers check them. */
export const FILTER_VALUES = {
  /** Exact, one of the roles. */
  accountRole: ACCOUNT_ROLES.join('|'),
  /** A case-insensitive prefix: anything but a comma, not empty. */
  prefix: '[^,]+',
  id: inner(ID_PATTERN),
  /** Exact match on free text (audit): anything but a comma. */
  exact: '[^,]*',
} as const;

export const LAST_LOGIN_PATTERN = `^(?:never|(?:since|before):${inner(LOGIN_TIME)})$`;

/** One address, less the parser's length look-ahead (which reads to the end of the whole value). */
const address = inner(ADDRESS).replace('(?=.{1,253}$)', '');

/** 1–MAX_RECIPIENTS addresses, comma-separated, blanks around each allowed (they are trimmed). */
export const RECIPIENTS_PATTERN = `^\\s*${address}\\s*(?:,\\s*${address}\\s*){0,${MAX_RECIPIENTS - 1}}$`;

/** Examples by parameter name; an operation may give its own (operations.ts `parameterExamples`). */
export const PARAMETER_EXAMPLES: Readonly<Record<string, unknown>> = {
  user_id: 'ada',
  department_id: 'eng',
  token_id: 'k3YtQ9wN2xVb7LpA',
  group_id: 'designers',
  report_id: 'r-example',
  webhook_id: 'wh-example',
  count: 20,
  offset: 0,
  // The first page (an empty cursor is as if absent): a real one comes from `next_cursor`.
  cursor: '',
  // A collection that runs every example does what they say; `true` answers the same without changing anything.
  dry_run: 'false',
};
