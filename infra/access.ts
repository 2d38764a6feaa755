/**
 * What each kind of route (by `Route.access`) may do, in one place: the stack
 * grants from here and the tests assert against it.
 */
import type { Access, Route } from '../lib/routes';

const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'] as const;

/**
 * TransactWriteItems and TransactGetItems are not IAM actions: DynamoDB checks
 * each item of a transaction against the matching single-item action, so
 * these also cover the audit-trail transactions.
 */
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:BatchWriteItem',
] as const;

/** DynamoDB actions a route function gets on the table and its indexes. No Scan, no DescribeTable. */
export const TABLE_ACTIONS: Readonly<Record<Access, readonly string[]>> = {
  public: [],
  read: TABLE_READ_ACTIONS,
  write: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
  scim: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
};

/**
 * The actions of one route. SCIM's discovery documents are constants (no
 * table access); its lists read and remember where a page ended (PutItem,
 * lib/store/scim-pages.ts); its changes write.
 */
export function tableActionsFor(route: Route): readonly string[] {
  if (leadingKeyPrefixFor(route) !== undefined) return ['dynamodb:GetItem'];
  if (route.access !== 'scim') return TABLE_ACTIONS[route.access];
  if (!/\/(Users|Groups)(\/|$)/.test(route.path)) return [];
  if (route.method === 'GET') return [...TABLE_READ_ACTIONS, 'dynamodb:PutItem'];
  return TABLE_ACTIONS.scim;
}

/** Report items: all the e-mailed report link's route may read (lib/store/reports.ts keys). */
export const REPORT_KEY_PREFIX = 'REPORT#';

/**
 * The partition-key prefix a route's table access is held to (a `dynamodb:LeadingKeys` condition, no index).
 * The one public route that reads the table, the report e-mail's link, reads its report item and nothing else.
 */
export function leadingKeyPrefixFor(route: Route): string | undefined {
  return route.access === 'public' && route.reportsBucket === 'presign' ? REPORT_KEY_PREFIX : undefined;
}

/** What the SCIM authorizer may do: read a token item, and record its use (lib/scim/tokens.ts). */
export const SCIM_AUTHORIZER_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem'] as const;
/** The only items it may touch: SCIM tokens (a dynamodb:LeadingKeys condition). */
export const SCIM_TOKEN_KEY_PREFIX = 'SCIMTOKEN#';

/** The actions only a write route may use; no other route may hold any of them. */
export const TABLE_WRITE_ONLY_ACTIONS: readonly string[] = TABLE_WRITE_ACTIONS;
