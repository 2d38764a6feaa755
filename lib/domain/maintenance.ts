/**
 * Periodic repair of work a request started but could not finish (its
 * function timed out or crashed). Every task is idempotent and safe to run
 * while requests are in flight.
 */
import { healBulkMoves } from './bulk-move';

export interface MaintenanceReport {
  healed_bulk_moves: number;
}

export async function runMaintenance(now = Date.now()): Promise<MaintenanceReport> {
  return { healed_bulk_moves: await healBulkMoves(now) };
}
