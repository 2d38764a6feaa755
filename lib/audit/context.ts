/**
 * The audit trail's rule: every change writes one audit entry inside the
 * transaction that makes the change, so there is no change without its
 * record and no record without its change.
 */
import type { Write } from '../db/transact';
import type { ResourceType } from '../schemas/enums';
import { auditPut } from '../store/audit';

/** Who changes what, carried from the request into every write. */
export interface ChangeContext {
  actor: string;
  operationId: string;
  requestId: string;
  /** When the request must have its answer (epoch ms, lib/slow-changes.ts); absent for background work, which runs to its end. */
  deadline?: number;
}

export interface ChangeRecord {
  resourceType: ResourceType;
  resourceId: string;
  changes: Record<string, unknown>;
}

/** The audit entry of a change, to be written in the change's own transaction. */
export const recordChange = (ctx: ChangeContext, record: ChangeRecord): Write =>
  auditPut({
    actor: ctx.actor,
    operation: ctx.operationId,
    request_id: ctx.requestId,
    resource_type: record.resourceType,
    resource_id: record.resourceId,
    changes: record.changes,
  });
