/** The limits of rule groups: members a rule may keep (the group limit) and how many rule groups may exist. */
import { config } from '../config';
import type { Write } from '../db/transact';
import { conflict } from '../problems';
import { countRuleGroupsWrite } from '../store/groups';

/** The most members a rule keeps: the contract's 10,000 (lowered in tests: lib/config.ts). */
export const ruleMaxUsers = (): number => config().ruleGroups.maxUsers;

/** A rule that matches more users than a group holds is refused (409 with `matching`). */
export function checkRuleFits(matching: number): void {
  const limit = ruleMaxUsers();
  if (matching > limit) {
    throw conflict(`The rule matches ${matching} users; a group holds at most ${limit}.`, { limit, matching });
  }
}

/** Moves the count of rule groups; past the most allowed (500), the transaction fails with 409. */
export function ruleGroupsCountWrite(delta: number): Write {
  const max = config().ruleGroups.maxGroups;
  return countRuleGroupsWrite(delta, max, () => conflict(`At most ${max} groups may have a rule; turn one off or delete one first.`));
}
