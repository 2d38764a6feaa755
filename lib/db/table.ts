/**
 * The shape of the single table, shared by the CDK stack and the local stack
 * so that both create exactly the same keys and indexes.
 *
 * Every index projects ALL attributes: a page of a list is then one Query of
 * the items themselves, which is cheaper than a keys-only index followed by a
 * BatchGetItem of the page. What each index holds is written in the store module of each item kind (lib/store/).
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
}

export const INDEXES = {
  /** Sorted by name, partitioned by kind (users in/out of a department, departments, groups, audit). */
  byName: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  /** Users of one department, sorted by last name. */
  byDepartment: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  /** Users of one role (in or out of a department), sorted by last name. */
  byRole: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
} as const satisfies Record<string, IndexDefinition>;

export const indexList: IndexDefinition[] = Object.values(INDEXES);
