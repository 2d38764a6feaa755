/**
 * Group rules: membership by department, role and activation.
 *
 * A rule is written in the lists' `query` syntax (lib/lists/filter.ts, the one
 * parser) over `department_id`, `account_role` and `activated`: the same
 * attribute twice means either value, different attributes must all hold.
 * It selects whole cells of department × role × activation — the dimensions
 * every user change already counts exactly (lib/users/counters.ts) and the
 * cell indexes already list users by (lib/store/users.ts) — so a rule is a
 * set of cells, and what it matches, or what changes between two rules, is
 * a union of whole cells (rule-preview.ts).
 */
import { parseFilter } from '../lists/filter';
import { validationError } from '../problems';
import { ID_PATTERN } from '../schemas/common';
import { ACCOUNT_ROLES, RULE_ATTRIBUTES, type AccountRole } from '../schemas/enums';

/** Departments a rule may name: every one is a counter item a preview reads and a lookup item a rule change writes. */
export const MAX_RULE_DEPARTMENTS = 40;

/** A parsed rule; an absent dimension holds any value (and without departments, users in no department match too). */
export interface Rule {
  departments?: string[];
  roles?: AccountRole[];
  activated?: boolean[];
}

const invalid = (message: string) => validationError([{ field: 'rule', message }]);

/** Parses a rule; anything the contract does not allow is a 400 on `rule`. Values are sorted and without repeats. */
export function parseRule(text: string): Rule {
  const filters = parseFilter(text, RULE_ATTRIBUTES, 'rule');
  if (filters.size === 0) throw invalid('a rule needs at least one attribute:value');
  const rule: Rule = {};
  const departments = filters.get('department_id');
  if (departments) {
    const bad = departments.find((id) => !ID_PATTERN.test(id));
    if (bad !== undefined) throw invalid(`department_id "${bad}" is not a valid id`);
    rule.departments = [...new Set(departments)].sort();
    if (rule.departments.length > MAX_RULE_DEPARTMENTS) throw invalid(`a rule names at most ${MAX_RULE_DEPARTMENTS} departments`);
  }
  const roles = filters.get('account_role');
  if (roles) {
    const bad = roles.find((role) => !ACCOUNT_ROLES.includes(role as AccountRole));
    if (bad !== undefined) throw invalid(`account_role "${bad}" is not one of ${ACCOUNT_ROLES.join(', ')}`);
    rule.roles = ACCOUNT_ROLES.filter((role) => roles.includes(role));
  }
  const activated = filters.get('activated');
  if (activated) {
    const bad = activated.find((value) => value !== 'true' && value !== 'false');
    if (bad !== undefined) throw invalid(`activated "${bad}" is not true or false`);
    rule.activated = [false, true].filter((value) => activated.includes(String(value)));
  }
  return rule;
}

/** The rule as stored and answered: attributes in a fixed order, values sorted, no repeats. */
export function ruleText(rule: Rule): string {
  return [
    ...(rule.departments ?? []).map((id) => `department_id:${id}`),
    ...(rule.roles ?? []).map((role) => `account_role:${role}`),
    ...(rule.activated ?? []).map((value) => `activated:${value}`),
  ].join(',');
}

/** Whether a user (as it is now) matches the rule. */
export function matchesRule(rule: Rule, user: { department_id: string | null; account_role: AccountRole; activated: boolean }): boolean {
  return (
    (!rule.departments || (user.department_id !== null && rule.departments.includes(user.department_id))) &&
    (!rule.roles || rule.roles.includes(user.account_role)) &&
    (!rule.activated || rule.activated.includes(user.activated))
  );
}

// --- rules as sets of cells ----------------------------------------------------

/** Role × activation, e.g. `admin.1`: a cell of the counters without its logged-in bit. */
export type Kind = `${AccountRole}.${0 | 1}`;

const ALL_KINDS: Kind[] = ACCOUNT_ROLES.flatMap((role) => [`${role}.0`, `${role}.1`] as Kind[]);

/** Which departments: these only, or all but these (users in no department included). */
export type Scope = { only: string[] } | { except: string[] };

/** department × kind: the cells of one part of a rule (or of a difference of rules). */
export interface CellSet {
  scope: Scope;
  kinds: Kind[];
}

export function kindsOf(rule: Rule): Kind[] {
  return ALL_KINDS.filter((kind) => {
    const [role, active] = kind.split('.') as [AccountRole, '0' | '1'];
    return (!rule.roles || rule.roles.includes(role)) && (!rule.activated || rule.activated.includes(active === '1'));
  });
}

/** The cells a rule selects (no rule: none). */
export function cellsOf(rule: Rule | null): CellSet[] {
  if (!rule) return [];
  return [{ scope: rule.departments ? { only: rule.departments } : { except: [] }, kinds: kindsOf(rule) }];
}

const minus = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();

function scopeMinus(a: Scope, b: Scope): Scope {
  if ('only' in a) return 'only' in b ? { only: minus(a.only, b.only) } : { only: a.only.filter((d) => b.except.includes(d)) };
  return 'only' in b ? { except: union(a.except, b.only) } : { only: minus(b.except, a.except) };
}

function scopeAnd(a: Scope, b: Scope): Scope {
  if ('only' in a) return 'only' in b ? { only: a.only.filter((d) => b.only.includes(d)) } : { only: minus(a.only, b.except) };
  return 'only' in b ? { only: minus(b.only, a.except) } : { except: union(a.except, b.except) };
}

const isEmpty = (set: CellSet) => set.kinds.length === 0 || ('only' in set.scope && set.scope.only.length === 0);

/**
 * The cells of `a` that are not in `b`: a's departments outside b's with all
 * of a's kinds, and the departments of both with the kinds of a not in b.
 * The parts are disjoint, so their counts add up.
 */
export function cellsMinus(a: Rule | null, b: Rule | null): CellSet[] {
  const [setA] = cellsOf(a);
  const [setB] = cellsOf(b);
  if (!setA) return [];
  if (!setB) return [setA];
  return [
    { scope: scopeMinus(setA.scope, setB.scope), kinds: setA.kinds },
    { scope: scopeAnd(setA.scope, setB.scope), kinds: minus(setA.kinds, setB.kinds) as Kind[] },
  ].filter((set) => !isEmpty(set));
}

/** Every department a set of cells names (its counters are read). */
export const departmentsNamed = (sets: CellSet[]): string[] =>
  union(
    [],
    sets.flatMap((set) => ('only' in set.scope ? set.scope.only : set.scope.except)),
  );
