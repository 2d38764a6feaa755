/**
 * What a rule matches, and what changing a group's rule would change, read
 * from the cell counters and the cell indexes — never by reading every user.
 *
 * Why this is exact at about a page's cost whatever the number of users:
 * a rule selects whole cells of department × role × activation (rule.ts).
 * Every user change moves, in its own transaction, a counter of its cell per
 * department (the department item's `C#<cell>`) and service-wide (the stats
 * shards' `USERS#IN|OUT#<cell>`); so the users a rule matches are the sum
 * of the counters of its cells — a read of the departments it names (at
 * most 40 items) and of the 16 stats shards, whatever the number of users.
 * Between two rules, `joining` = matches(new) − matches(old) and `leaving`
 * = matches(old) − matches(new); as sets of cells these are unions of whole
 * cells, because a cell is wholly inside a rule or wholly outside it:
 * (old's departments outside new's) × old's kinds, and (the departments of
 * both) × (old's kinds not in new's) — disjoint parts (rule.ts cellsMinus),
 * so their counts add up exactly from the same counters. A department scope
 * "all but these" (a rule without departments) is the service-wide counter
 * minus those departments'. The samples are the first users of the
 * difference's cells, read from the cell index (cellById) one non-empty cell
 * at a time until 20 are found: the counters say which cells hold anyone, so
 * each Query finds users, and 20 users is at most 20 Queries of one page.
 *
 * This holds while the group's members are its rule's matches (`current`).
 * A group without a rule, or one still applying or held at the limit, has
 * members no counter describes: its preview compares the members (at most
 * 10,000, the group's limit) with the new rule's matches (a 409 above
 * 10,000), which costs what those hold, never what the organization holds
 * beyond them.
 */
import { allOf, notOneOf, queryPage, type Filter, type IndexQuery } from '../db/query';
import { validationError } from '../problems';
import { findDepartments, type StoredDepartment } from '../store/departments';
import { readCounters } from '../store/stats';
import { toUser, userLists, type CellOf } from '../store/users';
import type { AccountRole } from '../schemas/enums';
import { memberIds } from '../store/memberships';
import type { StoredGroup } from '../store/groups';
import { readUsers, sortMembers } from './groups';
import type { User } from '../users/user';
import { cellsMinus, cellsOf, departmentsNamed, matchesRule, parseRule, type CellSet, type Kind, type Rule } from './rule';

/** Users answered per sample. */
export const SAMPLE_USERS = 20;

export interface RulePreview {
  matching: number;
  joining: number;
  leaving: number;
  sample_joining: User[];
  sample_leaving: User[];
}

/** The counters a set of rules' cells need: the departments they name, and the service-wide ones when a scope is "all but". */
interface CellCounts {
  departments: Map<string, StoredDepartment>;
  /** By cell code, both memberships added up; absent when no scope needs them. */
  everyone?: Record<string, number>;
}

export const codesOf = (kind: Kind): string[] => [`${kind}0`, `${kind}1`];

async function readCellCounts(sets: CellSet[]): Promise<CellCounts> {
  const needEveryone = sets.some((set) => 'except' in set.scope);
  const [departments, counters] = await Promise.all([
    findDepartments(departmentsNamed(sets)),
    needEveryone ? readCounters({ consistent: true }) : undefined,
  ]);
  const everyone = counters && sumMemberships(counters);
  return { departments, everyone };
}

function sumMemberships(counters: Record<string, number>): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const [name, n] of Object.entries(counters)) {
    const match = /^USERS#(IN|OUT)#(.+)$/.exec(name);
    if (match) sum[match[2]] = (sum[match[2]] ?? 0) + n;
  }
  return sum;
}

const inDepartment = (counts: CellCounts, department: string, code: string) => counts.departments.get(department)?.cells[code] ?? 0;

/** Users of one cell code within a set's scope. */
function usersOfCode(set: CellSet, code: string, counts: CellCounts): number {
  if ('only' in set.scope) return set.scope.only.reduce((n, d) => n + inDepartment(counts, d, code), 0);
  return (counts.everyone?.[code] ?? 0) - set.scope.except.reduce((n, d) => n + inDepartment(counts, d, code), 0);
}

const countOf = (sets: CellSet[], counts: CellCounts) =>
  sets.reduce((n, set) => n + set.kinds.flatMap(codesOf).reduce((m, code) => m + usersOfCode(set, code, counts), 0), 0);

/** A rule whose departments do not all exist is a 400: an unknown value. */
async function checkDepartments(rule: Rule, counts: CellCounts): Promise<void> {
  const unknown = (rule.departments ?? []).filter((id) => !counts.departments.has(id));
  if (unknown.length > 0) throw validationError([{ field: 'rule', message: `unknown department_id: ${unknown.join(', ')}` }]);
}

/** How many users a rule matches now, from counters alone; an unknown department is a 400. */
export async function countMatching(rule: Rule): Promise<number> {
  const sets = cellsOf(rule);
  const counts = await readCellCounts(sets);
  await checkDepartments(rule, counts);
  return countOf(sets, counts);
}

export const cellOfCode = (code: string): CellOf => {
  const [role, bits] = code.split('.') as [AccountRole, string];
  return { role, activated: bits[0] === '1', loggedIn: bits[1] === '1' };
};

/** The index partitions of a set's cells that hold someone, each with how many. */
function partitionsOf(set: CellSet, counts: CellCounts): Array<{ query: IndexQuery; users: number }> {
  return set.kinds.flatMap(codesOf).flatMap((code) => {
    const cell = cellOfCode(code);
    if ('only' in set.scope) {
      return set.scope.only
        .map((d) => ({ query: userLists.cell({ department: d }, cell, 'id'), users: inDepartment(counts, d, code) }))
        .filter((p) => p.users > 0);
    }
    const users = usersOfCode(set, code, counts);
    if (users <= 0) return [];
    const query = userLists.cell({ everyone: true }, cell, 'id');
    const except: Filter | undefined = set.scope.except.length > 0 ? notOneOf('department_id', set.scope.except, 'xd') : undefined;
    return [{ query: { ...query, filter: allOf([query.filter, except]) }, users }];
  });
}

/** Reads the first `need` users of the sets' cells, cell after cell (each Query of a non-empty cell finds some). */
async function sampleOf(sets: CellSet[], counts: CellCounts, need: number): Promise<User[]> {
  const users: User[] = [];
  for (const set of sets) {
    for (const { query } of partitionsOf(set, counts)) {
      let startKey: Record<string, unknown> | undefined;
      // "All but some departments" filters those out: a page of the cell at a time, at most a few.
      for (let pages = 0; users.length < need && pages < 5; pages++) {
        const page = await queryPage(query, { limit: need - users.length + (query.filter ? 100 : 0), startKey });
        users.push(...page.items.map(toUser).slice(0, need - users.length));
        startKey = page.next;
        if (!startKey) break;
      }
      if (users.length >= need) return users;
    }
  }
  return users;
}

/**
 * The preview of giving `group` (as read; null for a new group) the rule,
 * checking the rule's departments (400) on the way.
 */
export async function previewRule(group: StoredGroup | null, rule: Rule): Promise<RulePreview> {
  const old = group?.rule && group.rule_status === 'current' ? parseRule(group.rule) : null;
  const hasMembers = group !== null && group.user_count > 0;
  if (hasMembers && !old) return previewFromMembers(group, rule);
  const joiningSets = cellsMinus(rule, old);
  const leavingSets = cellsMinus(old, rule);
  const counts = await readCellCounts([...cellsOf(rule), ...cellsOf(old)]);
  await checkDepartments(rule, counts);
  const [sampleJoining, sampleLeaving] = await Promise.all([
    sampleOf(joiningSets, counts, SAMPLE_USERS),
    sampleOf(leavingSets, counts, SAMPLE_USERS),
  ]);
  return {
    matching: countOf(cellsOf(rule), counts),
    joining: countOf(joiningSets, counts),
    leaving: countOf(leavingSets, counts),
    sample_joining: sampleJoining,
    sample_leaving: sampleLeaving,
  };
}

/** A group whose members no counter describes: its members against the new rule's matches (see the top of this file). */
async function previewFromMembers(group: StoredGroup, rule: Rule): Promise<RulePreview> {
  const members = await readUsers(await memberIds(group));
  const matching = await countMatching(rule);
  const staying = [...members.values()].filter((user) => matchesRule(rule, user));
  const leavingUsers = [...members.values()].filter((user) => !matchesRule(rule, user));
  const joiningSample: User[] = [];
  if (matching > staying.length) {
    const counts = await readCellCounts(cellsOf(rule));
    // The first matches that are not members yet: at most the members more than a sample.
    const candidates = await sampleOf(cellsOf(rule), counts, SAMPLE_USERS + members.size);
    joiningSample.push(...candidates.filter((user) => !members.has(user.id)).slice(0, SAMPLE_USERS));
  }
  return {
    matching,
    joining: matching - staying.length,
    leaving: leavingUsers.length,
    sample_joining: joiningSample,
    sample_leaving: sortMembers(leavingUsers).slice(0, SAMPLE_USERS),
  };
}
