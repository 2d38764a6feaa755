/**
 * The audit trail's rule: every change writes one audit entry inside the
 * transaction that makes the change, so there is no change without its
 * record and no record without its change.
 */
import type { Write } from '../db/transact';
import { log } from '../log';
import { recordMetric } from '../metrics';
import type { ResourceType } from '../schemas/enums';
import { auditPut } from '../store/audit';

/** Who changes what, carried from the request into every write. */
export interface ChangeContext {
  actor: string;
  operationId: string;
  requestId: string;
}

export interface ChangeRecord {
  resourceType: ResourceType;
  resourceId: string;
  changes: Record<string, unknown>;
}

/**
 * An entry that committed later than its promise: a change feed reader may have passed its place
 * (lib/changes/feed.ts). The metric raises the `LateAuditCommits` alarm (docs/operations.md, "Runbook").
 */
async function lateCommit(at: string, tookMs: number): Promise<void> {
  recordMetric('lateAuditCommits', 1, {});
  await log('error', 'an audit entry committed later than its promise; change feed readers may have missed it', { at, took_ms: tookMs });
}

/** The audit entry of a change, to be written in the change's own transaction (which stamps its time). */
export const recordChange = (ctx: ChangeContext, record: ChangeRecord): Write =>
  auditPut(
    {
      actor: ctx.actor,
      operation: ctx.operationId,
      request_id: ctx.requestId,
      resource_type: record.resourceType,
      resource_id: record.resourceId,
      changes: record.changes,
    },
    lateCommit,
  );
