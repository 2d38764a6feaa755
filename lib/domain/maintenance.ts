/**
 * Periodic repair of work a request or a worker started but could not finish
 * (its function timed out or crashed). Every task is idempotent and safe to
 * run while requests are in flight.
 */
import { repairReports } from '../reports/jobs';
import { healBulkMoves } from './bulk-move';
import { sweepDeletedGroups } from './group-cleanup';

export interface MaintenanceReport {
  healed_bulk_moves: number;
  repaired_reports: number;
  swept_groups: number;
}

export async function runMaintenance(now = Date.now()): Promise<MaintenanceReport> {
  return {
    healed_bulk_moves: await healBulkMoves(now),
    repaired_reports: await repairReports(now),
    swept_groups: await sweepDeletedGroups({ now }),
  };
}
