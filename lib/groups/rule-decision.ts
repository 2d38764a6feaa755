/**
 * What the rule worker's decisions share, whether it applies a rule
 * (rule-apply.ts) or follows a user's change (rule-follow.ts): how the audit
 * trail names them, and the one way a step says "not now".
 */
import type { ChangeContext } from '../audit/context';
import type { Write } from '../db/transact';
import type { SYSTEM_OPERATIONS } from '../schemas/enums';
import { groupAudit } from './groups';

/** Who the audit trail names for a rule's joins and leaves. */
export const ruleActor = (groupId: string) => `rule:${groupId}`;

/** The audit's operations of rule work: among the service's own (SYSTEM_OPERATIONS), so webhook filters accept them. */
export type RuleOperation = Extract<(typeof SYSTEM_OPERATIONS)[number], 'applyGroupRule' | 'followUserChange'>;

export const ruleContext = (groupId: string, operationId: RuleOperation, requestId: string): ChangeContext => ({
  actor: ruleActor(groupId),
  operationId,
  requestId,
});

/** The one place rule work writes its audit entries. */
export const ruleAudit = (
  groupId: string,
  operationId: RuleOperation,
  requestId: string,
  changes: Record<string, unknown>,
  now: string,
): Write => groupAudit(ruleContext(groupId, operationId, requestId), groupId, changes, now);

/** A step that could not be decided now (the group is being changed, or its rule moved on): the work stays and runs again. */
export class TryAgain extends Error {}
