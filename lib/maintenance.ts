/**
 * Periodic repair of work a request or a worker started but could not finish
 * (its function timed out or crashed), above the concepts it heals. Every
 * task is idempotent and safe to run while requests are in flight.
 */
import { sequencePending } from './changes/sequencer';
import { healBulkMoves } from './departments/bulk-move/heal';
import { healGroupChanges } from './groups/bulk-change';
import { sweepDeletedGroups } from './groups/cleanup';
import { runStaleRuleWork } from './groups/rule-work';
import { repairReports } from './reports/jobs';

export interface MaintenanceReport {
  healed_bulk_moves: number;
  healed_group_changes: number;
  repaired_reports: number;
  swept_groups: number;
  rule_work_done: number;
  /** Audit entries placed in the change feed that the stream had not placed within FEED_STRAGGLER_MS. */
  feed_stragglers: number;
}

/** How long an entry may wait for its place before the sweep places it: the stream takes about a second. */
export const FEED_STRAGGLER_MS = 30_000;

export async function runMaintenance(now = Date.now()): Promise<MaintenanceReport> {
  return {
    healed_bulk_moves: await healBulkMoves(now),
    healed_group_changes: await healGroupChanges(now),
    repaired_reports: await repairReports(now),
    swept_groups: await sweepDeletedGroups(),
    rule_work_done: await runStaleRuleWork(now),
    feed_stragglers: await sequencePending({ olderThanMs: FEED_STRAGGLER_MS, now }),
  };
}
