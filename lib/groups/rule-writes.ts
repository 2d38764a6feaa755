/** What a change of a group's rule writes beside the group item: its entries in the rule index, and the work of applying it. */
import type { Write } from '../db/transact';
import type { RuleSetting } from '../store/groups';
import { groupRuleWorkWrite, ruleIndexDelete, ruleIndexPut, ruleScopes } from '../store/rules';
import { parseRule } from './rule';

/**
 * The rule index moves from the old rule's departments to the new one's (at
 * most 40 each: rule.ts), and a new rule is to be applied. A rule turned off
 * only leaves the index: its members stay.
 */
export function ruleChangeWrites(groupId: string, before: string | null, after: RuleSetting | null, now: string): Write[] {
  const oldScopes = before === null ? [] : ruleScopes(parseRule(before).departments);
  const newScopes = after === null ? [] : ruleScopes(parseRule(after.text).departments);
  return [
    ...oldScopes.filter((scope) => !newScopes.includes(scope)).map((scope) => ruleIndexDelete(scope, groupId)),
    ...(after === null ? [] : newScopes.map((scope) => ruleIndexPut(scope, groupId, after.text, after.version))),
    ...(after === null ? [] : [groupRuleWorkWrite(groupId, now)]),
  ];
}
