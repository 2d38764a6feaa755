/**
 * The minimum capacity each operation of the capacity scenario
 * (capacity-ops.ts) needs, worked out once from the data model (lib/store/
 * describes each kind of item; lib/db/table.ts the indexes), and what it
 * consumes today where that differs. The bench's capacity section judges
 * each operation against `rcu`/`wcu` (goal: at or under the minimum, no
 * scan); test/integration/capacity.test.ts asserts the exact figures.
 *
 * The rules (DynamoDB developer guide): reads in 4 KB units, 1 RCU strongly
 * consistent, 0.5 eventually (every user read is consistent; index Queries
 * and names for answers are not; a Query rounds up the sum it read);
 * writes in 1 KB units, 2 WCU a transactional item (ConditionCheck too),
 * plus each index entry put or deleted (1) or moved (2) — every index
 * projects ALL, so any change of an indexed item rewrites its entries (1).
 * A user item and a member's department copy are in six user lists (gsi1,
 * 4, 5, 6, 7, 8; gsi11 while deactivated); a department and a published
 * group in three (by name, by creation, by member count: a count change
 * moves that entry); an audit entry in four; bulk move headers and report
 * jobs in one queue; claims, memberships, bulk parts and counter items
 * (stats shards, login days, last names) in none. A change writes the
 * counters it moves (lib/users/counters.ts): each department whose
 * counters move, one stats shard for the service-wide cells, one login-day
 * item per membership and month, one last-name item per membership and
 * name and, for a member, per department and name. A read made only to
 * choose an error message, or that a write's own condition could replace,
 * is not in a minimum.
 *
 * When an operation's cost changes on purpose, change its row here (the
 * test's failure message says what it measured).
 */
export interface Minimum {
  rcu: number;
  wcu: number;
  /** How the minimum is made up. */
  why: string;
  /** What the operation consumes where that is not its minimum, and why. */
  consumed?: { rcu?: number; wcu?: number; why: string };
}

export const CAPACITY_MINIMA: Record<string, Minimum> = {
  createUser: {
    rcu: 0,
    wcu: 23,
    why: 'one transaction: the user (six entries put), its e-mail and user-name claims, stats shard (cell of OUT), last name of OUT, audit',
  },
  getUser: { rcu: 1, wcu: 0, why: 'one consistent read of the user' },
  updateUser: {
    rcu: 1,
    wcu: 15,
    why: 'read the user (its version); rewrite it (six entries rewritten: they hold the first name); no counter or claim moves; audit',
  },
  E2: {
    rcu: 1,
    wcu: 40,
    why: 'from no department: read; the user (six keys move OUT→IN: 2 each), its copy put (six), the department (usage, cell), stats shard, last names OUT and IN, audit',
  },
  'E2 (move)': {
    rcu: 1,
    wcu: 47,
    why: 'between departments: read; the user rewritten, its copy moved (six keys), both departments, both departments’ last names, audit',
  },
  E4: {
    rcu: 1,
    wcu: 40,
    why: 'read; the user (six keys move IN→OUT), its copy deleted, the department, stats shard, last names IN and OUT, audit',
  },
  E6: { rcu: 1, wcu: 0, why: 'one read of the department: limits and counters are on it' },
  E7: { rcu: 1, wcu: 11, why: 'the limit set (the department’s entries rewritten), audit; the department read back for its usage' },
  createDepartment: { rcu: 0, wcu: 13, why: 'the department (entries put), stats shard (departments), audit' },
  getDepartment: { rcu: 1, wcu: 0, why: 'one read of the department' },
  updateDepartment: { rcu: 1, wcu: 12, why: 'rename (the by-name key moves), audit; read back for the answer' },
  E8: { rcu: 0, wcu: 13, why: 'the empty department deleted (its condition checks: no read), stats shard, audit' },
  listDepartments: { rcu: 1, wcu: 0, why: 'the page and one more from DEPTS of byName, and the stats shards for the total' },
  E1: { rcu: 6, wcu: 0, why: 'a page of 100 and one more from USERS#IN of byName, and the stats shards (a warm container)' },
  listUsers: {
    rcu: 6,
    wcu: 0,
    why: 'USERS#IN and USERS#OUT merged by name: from each its share of the page and one more, and the stats shards',
    consumed: {
      rcu: 7,
      why: 'each partition is read for its counted share plus a margin (lib/db/query.ts), a few entries more than the page takes',
    },
  },
  'E3 (40 users)': {
    rcu: 41,
    wcu: 1381,
    why: 'read the target and every user; 40 users of 10 names between two departments are 103 items with their counters, over a transaction, so the bulk protocol: reserve, hold and apply per part (each user written twice, six entries each), finish',
    consumed: {
      wcu: 1379,
      why: 'the minimum sizes the move’s own header and part items from their shape; the service’s are a little smaller',
    },
  },
  'E3 (100 users)': {
    rcu: 101,
    wcu: 3280,
    why: 'as E3 of 40: the bulk protocol, every user written twice (hold, apply) with its six entries, its copy moved',
    consumed: { wcu: 3277, why: 'as E3 of 40' },
  },
  'E5 (10 users)': {
    rcu: 10,
    wcu: 266,
    why: 'read the users; one transaction: each user out (six keys move), its copy deleted, the department, stats shard, login days, last names, audit',
  },
  'G3 (10 users)': {
    rcu: 10,
    wcu: 75,
    why: 'read the users; one transaction: the group (entries put), its name claim, stats shard, audit, per user two membership items and a ConditionCheck',
  },
  'G1 (10 users)': { rcu: 12, wcu: 0, why: 'the group, its member partition (one consistent Query), the users' },
  G2: { rcu: 1, wcu: 0, why: 'the page and one more from GROUPS of byName, and the stats shards' },
  G4: {
    rcu: 2,
    wcu: 18,
    why: 'the group and the user; one transaction: the group’s count, a ConditionCheck on the user, two membership items (the put’s condition answers “already a member”), audit',
  },
  G5: {
    rcu: 1,
    wcu: 16,
    why: 'the group; one transaction: its count, both membership items deleted (the condition answers “not a member”), audit',
  },
  'G6 (10 users)': {
    rcu: 2,
    wcu: 55,
    why: 'the group and its member partition; one transaction: the group and its name claim deleted, every membership item, stats shard, audit',
  },
  deleteUser: {
    rcu: 1,
    wcu: 31,
    why: 'the lock (an update that returns the user: six entries rewritten), one Query of USER#<id> for its memberships; one transaction: user deleted, both claims released, stats shard, last name, audit',
  },
  E9: { rcu: 0, wcu: 9, why: 'the job (queued in REPORTS#PENDING of byName) and the audit entry' },
  getDepartmentsReport: { rcu: 1, wcu: 0, why: 'one read of the job; the link is signed locally' },
  listAudit: { rcu: 1.5, wcu: 0, why: 'the newest 100 entries and one more, one Query; the trail has no total' },
  'SCIM userName eq': {
    rcu: 2,
    wcu: 0,
    why: 'the user-name claim (0.5), the user (1), its department’s name for the enterprise extension (0.5), whatever the number of users',
  },
  'SCIM create user (department by name)': {
    rcu: 1,
    wcu: 40,
    why: 'the department reference by id (finds nothing: 0.5) then by name (one Query: 0.5); one transaction: user and copy (six entries each), e-mail, user-name and external-id claims, the department, stats shard, last names, audit',
  },
  'SCIM PATCH active false': {
    rcu: 1.5,
    wcu: 37,
    why: 'the user (1) and its department’s name for the answer (0.5); one transaction: user and copy rewritten (cell keys move), the department, stats shard, audit',
  },
  'SCIM PATCH group add member': {
    rcu: 1,
    wcu: 18,
    why: 'G4 without its answer: the group (1); no membership read, no read back (the ETag is the version the write set)',
  },
  'SCIM list page 1 (count=100)': {
    rcu: 10,
    wcu: 1,
    why: 'members by name, then the others (USERS#IN, then USERS#OUT): the entries the page takes and one more, the stats shards, each department of the page for its name (0.5 each), the next page’s cursor put (lib/store/scim-pages.ts)',
  },
  'SCIM list pages 2+ (startIndex step 100, sum)': {
    rcu: 139.5,
    wcu: 12,
    why: 'every following page as page 1, plus the read of the cursor the page before kept; the last page keeps none (12 pages)',
  },
  'SCIM list page at depth (kept cursor)': {
    rcu: 7,
    wcu: 1,
    why: 'the walk’s last full page asked again: a page at any depth costs one page',
  },
};

/** The exact figures an operation consumes today. */
export const expectedCapacity = (minimum: Minimum) => ({
  rcu: minimum.consumed?.rcu ?? minimum.rcu,
  wcu: minimum.consumed?.wcu ?? minimum.wcu,
});
