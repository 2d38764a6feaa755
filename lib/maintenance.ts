/**
 * Periodic repair of work a request or a worker started but could not finish
 * (its function timed out or crashed), above the concepts it heals. Every
 * task is idempotent and safe to run while requests are in flight.
 */
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
}

export async function runMaintenance(now = Date.now()): Promise<MaintenanceReport> {
  return {
    healed_bulk_moves: await healBulkMoves(now),
    healed_group_changes: await healGroupChanges(now),
    repaired_reports: await repairReports(now),
    swept_groups: await sweepDeletedGroups({ now }),
    rule_work_done: await runStaleRuleWork(now),
  };
}
