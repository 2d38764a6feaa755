/**
 * The shape of the single table, shared by the CDK stack and the local stack
 * so that both create exactly the same keys and indexes.
 *
 * Every index projects ALL attributes: a page of a list is then one Query of
 * the items themselves, which is cheaper than a keys-only index followed by a
 * BatchGetItem of the page (0.5 RCU per 4 KB of entries against 0.5 RCU per
 * item). What each index holds is written in the store module of each item
 * kind (lib/store/).
 */

/** An item as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/** The primary key of an item. */
export type Key = { pk: string; sk: string };

export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';
export const TTL_ATTRIBUTE = 'expires_at';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** The sort key's type: a string unless `'N'` (a number). */
  sortKeyType?: 'N';
  /**
   * A multi-attribute sort key: `sortKey`, then this string attribute. A Query
   * puts equality on `sortKey` before any condition on this one.
   */
  thenBy?: string;
}

/** One attribute of an index key, with its DynamoDB type. */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

/** The key attributes of an index: its partition key, then its sort key attributes in order. */
export function keyAttributes(index: IndexDefinition): { partition: KeyAttribute; sort: KeyAttribute[] } {
  const sort: KeyAttribute[] = [{ name: index.sortKey, type: index.sortKeyType ?? 'S' }];
  if (index.thenBy !== undefined) sort.push({ name: index.thenBy, type: 'S' });
  return { partition: { name: index.partitionKey, type: 'S' }, sort };
}

/**
 * The global secondary indexes. An index is a partition attribute and a sort
 * attribute (or two: a multi-attribute sort key, `thenBy`); several
 * indexes share attributes (every name-sorted index sorts on `gsi1sk`), and
 * each item kind fills the attributes of the indexes it is listed in (its
 * store module says which). An item without both attributes of an index is
 * not in it.
 */
export const INDEXES = {
  /** Lists in name or key order: users by membership (USERS#IN|OUT), one department's users, departments, groups, audit, queues. */
  byName: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** Audit entries by resource. */
  byResource: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  /** The byName partitions in time order: users by last login, departments and groups by creation. */
  byTime: { name: 'gsi4', partitionKey: 'gsi1pk', sortKey: 'gsi4sk' },
  /** Users of one cell (scope × role × activated × logged in or not) by name; audit entries by actor. */
  cellByName: { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi1sk' },
  /** Users of one cell by last login. */
  cellByTime: { name: 'gsi6', partitionKey: 'gsi5pk', sortKey: 'gsi4sk' },
  /** Users of one cell by id (`gsi7sk` is the id, on users only: other items with a `gsi5pk` stay out). */
  cellById: { name: 'gsi7', partitionKey: 'gsi5pk', sortKey: 'gsi7sk' },
  /** Users by the month of their last login (or never), by name; audit entries by operation. */
  monthByName: { name: 'gsi8', partitionKey: 'gsi8pk', sortKey: 'gsi1sk' },
  /**
   * Departments by member count, then id: the byName partition sorted on the
   * quota counter `usage_users` itself (a number) and `id`, so the blind ADD
   * of every membership change moves the entry, and no attribute of its own
   * has to follow the count.
   */
  departmentsByCount: { name: 'gsi9', partitionKey: 'gsi1pk', sortKey: 'usage_users', sortKeyType: 'N', thenBy: 'id' },
  /** Groups by `user_count`, then id, the same way (a pending group sits in its own partition, GROUPS#PENDING). */
  groupsByCount: { name: 'gsi10', partitionKey: 'gsi1pk', sortKey: 'user_count', sortKeyType: 'N', thenBy: 'id' },
  /**
   * Deactivated users of a scope by name: sparse, only a user with `activated` false carries `gsi11pk`, so a
   * page of them is one partition, however few they are among the scope's users and however they spread
   * over its cells.
   */
  inactiveByName: { name: 'gsi11', partitionKey: 'gsi11pk', sortKey: 'gsi1sk' },
} as const satisfies Record<string, IndexDefinition>;

export const indexList: IndexDefinition[] = Object.values(INDEXES);

/**
 * The table's own key, queried like an index: a partition of items that share a `pk`, in `sk` order. Unlike an
 * index it can be read strongly consistent (the change feed reads the audit trail so: lib/changes/feed.ts).
 */
export const PRIMARY_KEY = { name: '', partitionKey: PARTITION_KEY, sortKey: SORT_KEY } as const satisfies IndexDefinition;
