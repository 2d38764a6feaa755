/**
 * The suite's record of AWS calls (written by infra/local/aws-calls.ts, one
 * pair of files per checker) read back at the end of a run: every call a
 * role refused, and every action granted that no function holding the same
 * grants used, less those infra/unused-grants.ts justifies.
 *
 * Each function has a role of its own, but functions of one kind hold the
 * same grants (every read route the read actions, and so on: infra/access.ts),
 * so an action is weighed per set of identical grants: it is needed if any
 * function granted it that way uses it. Per role, every read route that never
 * happens to call BatchGetItem would fail the run for a grant its kind needs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNUSED_GRANT_REASONS, type UnusedGrantReason } from '../unused-grants';
import { CALLS_FILE, GRANTS_FILE, type RecordedCall } from './aws-calls';
import type { LocalFunction } from './deployment';
import { actionMatches, grantedActions } from './iam';

type FunctionGrants = Pick<LocalFunction, 'handler' | 'logicalId' | 'roleLogicalId' | 'statements' | 'managedPolicyArns'>;

export interface CallRecord {
  /** Every function a checker was made for, once. */
  functions: FunctionGrants[];
  calls: RecordedCall[];
}

export function readCallRecord(directory: string): CallRecord {
  const files = readdirSync(directory);
  const functions = new Map<string, FunctionGrants>();
  for (const file of files.filter((name) => GRANTS_FILE.test(name))) {
    for (const fn of JSON.parse(readFileSync(join(directory, file), 'utf8')) as FunctionGrants[]) functions.set(fn.logicalId, fn);
  }
  const calls = files
    .filter((name) => CALLS_FILE.test(name))
    .flatMap((file) =>
      readFileSync(join(directory, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as RecordedCall),
    );
  return { functions: [...functions.values()], calls };
}

/** What the functions holding one set of grants used of it. */
export interface RoleUse {
  /** The roles that hold these grants, one per function. */
  roleLogicalIds: string[];
  handlers: string[];
  used: string[];
  /** Granted, unused, and justified. */
  justified: Array<{ action: string; reason: string }>;
  /** Granted, unused, and not justified: the run fails on these. */
  unjustified: string[];
}

export interface CallReport {
  roles: RoleUse[];
  denied: RecordedCall[];
  /** Reasons that justify no unused grant of any role: stale, or for a grant another configuration makes. */
  idleReasons: UnusedGrantReason[];
}

export function callReport(record: CallRecord, reasons: readonly UnusedGrantReason[] = UNUSED_GRANT_REASONS): CallReport {
  const groups = new Map<string, FunctionGrants[]>();
  for (const fn of record.functions) {
    const key = JSON.stringify([fn.statements, [...fn.managedPolicyArns].sort()]);
    groups.set(key, [...(groups.get(key) ?? []), fn]);
  }
  const usedReasons = new Set<UnusedGrantReason>();
  const report: RoleUse[] = [...groups.values()].map((functions) => {
    const handlers = functions.map((fn) => fn.handler).sort();
    const roleLogicalIds = [...new Set(functions.map((fn) => fn.roleLogicalId))].sort();
    const used = [
      ...new Set(
        record.calls
          .filter((call) => roleLogicalIds.includes(call.roleLogicalId) && call.decision === 'Allowed')
          .map((call) => call.action),
      ),
    ].sort();
    const granted = [...new Set(functions.flatMap((fn) => grantedActions(fn)))].sort();
    const unused = granted.filter((pattern) => !used.some((action) => actionMatches(pattern, action)));
    const justified: RoleUse['justified'] = [];
    const unjustified: string[] = [];
    for (const action of unused) {
      const reason = reasons.find(
        (entry) =>
          actionMatches(entry.action, action) && (!entry.functions || entry.functions.some((handler) => handlers.includes(handler))),
      );
      if (reason) usedReasons.add(reason);
      if (reason) justified.push({ action, reason: reason.reason });
      else unjustified.push(action);
    }
    return { roleLogicalIds, handlers, used, justified, unjustified };
  });
  return {
    roles: report.sort((a, b) => a.handlers[0].localeCompare(b.handlers[0])),
    denied: record.calls.filter((call) => call.decision !== 'Allowed'),
    idleReasons: reasons.filter((reason) => !usedReasons.has(reason)),
  };
}

export function formatCallReport(report: CallReport): string {
  const lines = ['# AWS calls of the test suite against the roles of the synthesized template', ''];
  lines.push(`## Refused calls: ${report.denied.length}`);
  for (const call of report.denied) {
    lines.push(
      `- ${call.handler} (${call.roleLogicalId}): ${call.action} on ${call.resource} ${JSON.stringify(call.context)}: ${call.invalid ?? call.decision}`,
    );
  }
  lines.push('', `## Granted but unused, not justified: ${report.roles.reduce((sum, role) => sum + role.unjustified.length, 0)}`);
  for (const role of report.roles.filter((entry) => entry.unjustified.length > 0)) {
    lines.push(`- ${role.handlers.join(', ')}: ${role.unjustified.join(', ')}`);
  }
  lines.push('', '## Each set of grants, and the functions (each with its own role) that hold it');
  for (const role of report.roles) {
    lines.push('', `### ${role.handlers.join(', ')}`);
    lines.push(`- used: ${role.used.join(', ') || 'nothing'}`);
    for (const { action, reason } of role.justified) lines.push(`- unused, justified: ${action}: ${reason}`);
    for (const action of role.unjustified) lines.push(`- UNUSED, NOT JUSTIFIED: ${action}`);
  }
  if (report.idleReasons.length > 0) {
    lines.push('', '## Reasons in infra/unused-grants.ts that justified nothing in this run');
    for (const reason of report.idleReasons) lines.push(`- ${reason.action}${reason.functions ? ` (${reason.functions.join(', ')})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
