/** Group rules: the syntax (the lists' parser), matching, and the cell algebra the preview counts with. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellsMinus, cellsOf, kindsOf, matchesRule, parseRule, ruleText, type CellSet, type Rule } from '../../lib/groups/rule';
import { Problem } from '../../lib/problems';
import { ACCOUNT_ROLES, type AccountRole } from '../../lib/schemas/enums';

const DEPARTMENTS = ['a', 'b', 'c'];

const ruleArb: fc.Arbitrary<Rule> = fc
  .record(
    {
      departments: fc.uniqueArray(fc.constantFrom(...DEPARTMENTS), { minLength: 1 }),
      roles: fc.uniqueArray(fc.constantFrom(...ACCOUNT_ROLES), { minLength: 1 }),
      activated: fc.uniqueArray(fc.boolean(), { minLength: 1 }),
    },
    { requiredKeys: [] },
  )
  .filter((rule) => Object.keys(rule).length > 0)
  .map((rule) => parseRule(ruleText(rule)));

/** Every user kind of the small universe: a department (or none) × role × activation. */
const USERS = [...DEPARTMENTS, null].flatMap((department_id) =>
  ACCOUNT_ROLES.flatMap((account_role) => [false, true].map((activated) => ({ department_id, account_role, activated }))),
);

function inSet(set: CellSet, user: { department_id: string | null; account_role: AccountRole; activated: boolean }): boolean {
  const kind = `${user.account_role}.${user.activated ? 1 : 0}`;
  if (!set.kinds.includes(kind as never)) return false;
  if ('only' in set.scope) return user.department_id !== null && set.scope.only.includes(user.department_id);
  return user.department_id === null || !set.scope.except.includes(user.department_id);
}

describe('parseRule and ruleText', () => {
  it('reads the contract example and writes it in a canonical order', () => {
    const rule = parseRule('department_id:eng,department_id:ops,account_role:admin,activated:true');
    expect(rule).toEqual({ departments: ['eng', 'ops'], roles: ['admin'], activated: [true] });
    expect(ruleText(parseRule('activated:true,account_role:admin,department_id:ops,department_id:eng,department_id:ops'))).toBe(
      'department_id:eng,department_id:ops,account_role:admin,activated:true',
    );
  });

  it.each(['', 'last_login:never', 'account_role', 'account_role:root', 'activated:1', 'department_id:', 'department_id:a/b'])(
    'refuses %j with a 400 on rule',
    (text) => {
      expect(() => parseRule(text)).toThrow(Problem);
      try {
        parseRule(text);
      } catch (error) {
        expect((error as Problem).extra).toMatchObject({ errors: [{ field: 'rule' }] });
      }
    },
  );

  it('is a fixed point: parsing the canonical text gives the same rule', () => {
    fc.assert(
      fc.property(ruleArb, (rule) => {
        expect(parseRule(ruleText(rule))).toEqual(rule);
      }),
    );
  });
});

describe('rules as cells', () => {
  it('a rule’s cells hold exactly the users it matches', () => {
    fc.assert(
      fc.property(ruleArb, (rule) => {
        for (const user of USERS) expect(cellsOf(rule).some((set) => inSet(set, user))).toBe(matchesRule(rule, user));
      }),
    );
  });

  it('cellsMinus(a, b) is exactly the users a matches and b does not, in disjoint parts', () => {
    fc.assert(
      fc.property(fc.option(ruleArb), fc.option(ruleArb), (a, b) => {
        const parts = cellsMinus(a, b);
        for (const user of USERS) {
          const inParts = parts.filter((set) => inSet(set, user)).length;
          expect(inParts).toBeLessThanOrEqual(1);
          const expected = a !== null && matchesRule(a, user) && !(b !== null && matchesRule(b, user));
          expect(inParts === 1).toBe(expected);
        }
      }),
    );
  });

  it('kinds are role × activation', () => {
    expect(kindsOf({ roles: ['admin'] })).toEqual(['admin.0', 'admin.1']);
    expect(kindsOf({ activated: [true] })).toHaveLength(4);
  });
});
