/**
 * What each function may do on the table, in one place: the stack grants
 * from here and the tests assert against it.
 *
 * A function gets what its kind of route (`Route.access`) needs, narrowed by
 * item kind (a `dynamodb:LeadingKeys` condition on the partition keys'
 * prefixes, each from its item kind in lib/store) where it writes less:
 *
 * - the audit trail only grows: audit entries are put, once, in the
 *   transaction of the change they record, and no function may update or
 *   delete one (expired entries go by the table's TTL, which needs no
 *   permission) but the change feed's sequencers (the StreamRouter and
 *   Maintenance), which take an entry's pending mark off as they append it
 *   to the feed; the feed too only grows, and only the sequencers write it;
 * - SCIM tokens are made by createScimToken, deleted by deleteScimToken and
 *   marked used by the SCIM authorizer, and changed by no other function;
 *   the two token routes write their token, its audit entry and their
 *   idempotency record, and no other item;
 * - a webhook's PATCH, the one webhook route with a role of its own (it may
 *   send to the delivery queue), reads and changes that webhook, resets its
 *   failure state, puts its audit entry and keeps its idempotency record;
 * - SCIM's lists write only their page memo (lib/store/scim-pages.ts), the
 *   report worker only report jobs;
 * - the routes that sign report downloads read report items only;
 * - the webhook delivery function reads the webhooks and the audit trail,
 *   and writes only its delivery records and failure state, and the audit
 *   entry of a webhook it disables.
 *
 * TransactWriteItems is not an IAM action: DynamoDB checks each item of a
 * transaction against the matching single-item action (Put → PutItem, …,
 * ConditionCheck → ConditionCheckItem), with that item's key, so the
 * conditions below hold inside transactions too.
 */
import { AUDIT_KEY_PREFIX } from '../lib/store/audit';
import { FEED_HEAD_KEY_PREFIX, FEED_KEY_PREFIX } from '../lib/store/feed';
import { IDEMPOTENCY_KEY_PREFIX } from '../lib/store/idempotency';
import { REPORT_KEY_PREFIX } from '../lib/store/reports';
import { SCIM_PAGE_KEY_PREFIX } from '../lib/store/scim-pages';
import { SCIM_TOKEN_KEY_PREFIX } from '../lib/store/scim-tokens';
import { WEBHOOK_DELIVERY_KEY_PREFIX, WEBHOOK_KEY_PREFIX } from '../lib/store/webhooks';
import type { BackgroundFunction } from '../lib/background';
import type { Access, OperationName, Route } from '../lib/routes';

export {
  AUDIT_KEY_PREFIX,
  FEED_HEAD_KEY_PREFIX,
  FEED_KEY_PREFIX,
  IDEMPOTENCY_KEY_PREFIX,
  REPORT_KEY_PREFIX,
  SCIM_PAGE_KEY_PREFIX,
  SCIM_TOKEN_KEY_PREFIX,
  WEBHOOK_DELIVERY_KEY_PREFIX,
  WEBHOOK_KEY_PREFIX,
};

const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'] as const;

/** The actions that change an item (BatchWriteItem puts and deletes). */
const ITEM_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;
const TABLE_WRITE_ACTIONS = [...ITEM_WRITE_ACTIONS, 'dynamodb:ConditionCheckItem'] as const;

/** DynamoDB actions of each kind of route, on the table and its indexes. No Scan, no DescribeTable. */
export const TABLE_ACTIONS: Readonly<Record<Access, readonly string[]>> = {
  public: [],
  read: TABLE_READ_ACTIONS,
  write: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
  scim: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS],
};

/** The actions only a write route may use; no other route may hold any of them unconditioned. */
export const TABLE_WRITE_ONLY_ACTIONS: readonly string[] = TABLE_WRITE_ACTIONS;

/**
 * One statement on the table. With `items`, only items whose partition key
 * starts with one of these prefixes, and only the base table: an Allow
 * holds for a request whose keys all match (ForAllValues), a Deny for one
 * with any key that matches (ForAnyValue). Without, the table and its indexes.
 */
export interface TableStatement {
  effect: 'Allow' | 'Deny';
  actions: readonly string[];
  items?: readonly string[];
}

const allow = (actions: readonly string[], items?: readonly string[]): TableStatement => ({
  effect: 'Allow',
  actions,
  ...(items ? { items } : {}),
});
const deny = (actions: readonly string[], items: readonly string[]): TableStatement => ({ effect: 'Deny', actions, items });

/**
 * What the idempotency of a token route does with its record (lib/http/idempotency.ts):
 * claims it, completes or closes it, and releases it when the request fails. No
 * read: a stored answer's parts are read only for answers over one item, which
 * these never give (a token's answer is never stored at all).
 */
const IDEMPOTENCY_RECORDS: readonly TableStatement[] = [
  allow(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], [IDEMPOTENCY_KEY_PREFIX]),
];

/** The only routes that make or delete a SCIM token: that token, its audit entry and their idempotency record. */
const SCIM_TOKEN_ROUTES: Readonly<Record<string, readonly TableStatement[]>> = {
  createScimToken: [allow(['dynamodb:PutItem'], [SCIM_TOKEN_KEY_PREFIX, AUDIT_KEY_PREFIX]), ...IDEMPOTENCY_RECORDS],
  deleteScimToken: [
    allow(['dynamodb:DeleteItem'], [SCIM_TOKEN_KEY_PREFIX]),
    allow(['dynamodb:PutItem'], [AUDIT_KEY_PREFIX]),
    ...IDEMPOTENCY_RECORDS,
  ],
} satisfies Partial<Record<OperationName, readonly TableStatement[]>>;

/**
 * The routes whose role is their own, narrowed to what they do: a role
 * shared by many write routes holds what they use together, one of a
 * single route only what that route uses (lib/webhooks/update.ts).
 */
const WEBHOOK_ROUTES: Readonly<Record<string, readonly TableStatement[]>> = {
  updateWebhook: [
    allow(['dynamodb:GetItem'], [WEBHOOK_KEY_PREFIX, WEBHOOK_DELIVERY_KEY_PREFIX]),
    allow(['dynamodb:UpdateItem'], [WEBHOOK_KEY_PREFIX]),
    allow(['dynamodb:DeleteItem'], [WEBHOOK_DELIVERY_KEY_PREFIX]),
    allow(['dynamodb:PutItem'], [AUDIT_KEY_PREFIX]),
    ...IDEMPOTENCY_RECORDS,
  ],
} satisfies Partial<Record<OperationName, readonly TableStatement[]>>;

const ALL_BUT_PUT = ITEM_WRITE_ACTIONS.filter((action) => action !== 'dynamodb:PutItem');

/**
 * What a function that may write anything else must never do: change an
 * audit entry after its put, write the change feed, or change a SCIM token.
 * A sequencer of the feed may take an audit entry's pending mark off (an
 * update), append to the feed and move its heads, and no more.
 */
export function fencedWrites({ sequencer = false } = {}): TableStatement[] {
  return [
    deny(sequencer ? ALL_BUT_PUT.filter((action) => action !== 'dynamodb:UpdateItem') : ALL_BUT_PUT, [AUDIT_KEY_PREFIX]),
    sequencer ? deny(ALL_BUT_PUT, [FEED_KEY_PREFIX]) : deny(ITEM_WRITE_ACTIONS, [FEED_KEY_PREFIX, FEED_HEAD_KEY_PREFIX]),
    deny(ITEM_WRITE_ACTIONS, [SCIM_TOKEN_KEY_PREFIX]),
  ];
}

/** The table statements of one route. */
export function tableStatementsFor(route: Route): TableStatement[] {
  // The routes that sign report downloads (the e-mailed link, the one public route with data, among them)
  // read their report item and nothing else.
  if (route.reportsBucket === 'presign') return [allow(['dynamodb:GetItem'], [REPORT_KEY_PREFIX])];
  if (route.access === 'public') return [];
  if (route.access === 'read') return [allow(TABLE_ACTIONS.read)];
  if (route.access === 'scim') {
    // Discovery documents are constants; lists read, and remember where a page ended.
    if (!/\/(Users|Groups)(\/|$)/.test(route.path)) return [];
    if (route.method === 'GET') return [allow(TABLE_ACTIONS.read), allow(['dynamodb:PutItem'], [SCIM_PAGE_KEY_PREFIX])];
  }
  const narrowed = SCIM_TOKEN_ROUTES[route.name] ?? WEBHOOK_ROUTES[route.name];
  if (narrowed) return [...narrowed];
  return [allow(TABLE_ACTIONS[route.access]), ...fencedWrites()];
}

/**
 * The table statements of each background function (lib/background.ts): a
 * new one must say here what it writes.
 */
const BACKGROUND_TABLE_STATEMENTS: Readonly<Record<string, readonly TableStatement[]>> = {
  // Finishes bulk moves and group changes (users, departments, counters, memberships, their audit entries), repairs report
  // jobs, and appends to the change feed the entries the stream did not.
  Maintenance: [allow(TABLE_ACTIONS.write), ...fencedWrites({ sequencer: true })],
  // The change feed's sequencer: finds pending entries (byName, locally), moves a shard's head, appends the entries'
  // copies, takes their pending marks off. Nothing else: what it publishes and hands on goes out of the table.
  StreamRouter: [
    allow(['dynamodb:Query']),
    allow(['dynamodb:GetItem', 'dynamodb:UpdateItem'], [FEED_HEAD_KEY_PREFIX]),
    allow(['dynamodb:PutItem'], [FEED_KEY_PREFIX]),
    allow(['dynamodb:UpdateItem'], [AUDIT_KEY_PREFIX]),
  ],
  // Reads what a report lists; writes only its job's progress.
  // (Query and BatchGetItem only: it reads no item by key; its bundle holds no GetItem.)
  ReportWorker: [allow(['dynamodb:Query', 'dynamodb:BatchGetItem']), allow(['dynamodb:UpdateItem'], [REPORT_KEY_PREFIX])],
  // Writes rule groups' memberships, counts, statuses and audit entries, the large changes of their members, and its own work items.
  RuleWorker: [allow(TABLE_ACTIONS.write), ...fencedWrites()],
  // Reads the webhooks (by key and their index) and the audit trail (Query of its partitions); writes its delivery
  // records and failure state, and puts the audit entry of a webhook it disables. Not the webhook item itself.
  WebhookDelivery: [
    allow(['dynamodb:GetItem', 'dynamodb:Query']),
    allow(['dynamodb:PutItem', 'dynamodb:UpdateItem'], [WEBHOOK_DELIVERY_KEY_PREFIX]),
    allow(['dynamodb:PutItem'], [AUDIT_KEY_PREFIX]),
  ],
};

export function tableStatementsForJob(job: BackgroundFunction): readonly TableStatement[] {
  const statements = BACKGROUND_TABLE_STATEMENTS[job.name];
  if (!statements) throw new Error(`infra/access.ts: say what background function ${job.name} may do on the table`);
  return statements;
}

/** The SCIM authorizer: reads a token item and records its use (lib/scim/tokens.ts), and touches no other item. */
export const SCIM_AUTHORIZER_STATEMENTS: readonly TableStatement[] = [
  allow(['dynamodb:GetItem', 'dynamodb:UpdateItem'], [SCIM_TOKEN_KEY_PREFIX]),
];

/** Every action a function is allowed, whatever the items. */
export const allowedActions = (statements: readonly TableStatement[]): string[] =>
  statements.filter((statement) => statement.effect === 'Allow').flatMap((statement) => statement.actions);

/** The actions a route is allowed, on some items or all. */
export const tableActionsFor = (route: Route): string[] => allowedActions(tableStatementsFor(route));
