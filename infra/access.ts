/**
 * What each kind of route (by `Route.access`) may do, in one place: the stack
 * grants from here and the tests assert against it.
 */
import type { Access } from '../lib/routes';

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
};

/** The actions only a write route may use; no other route may hold any of them. */
export const TABLE_WRITE_ONLY_ACTIONS: readonly string[] = TABLE_WRITE_ACTIONS;
