/**
 * Audit trail: every change writes one audit entry inside the transaction
 * that makes the change, so there is no change without its record and no
 * record without its change.
 */
import { newId } from '../ids';
import { AUDIT_PARTITION, auditKey } from '../db/keys';
import { tableName } from '../db/client';
import type { Write } from '../db/transact';

/** Who changes what, carried from the request into every write. */
export interface ChangeContext {
  actor: string;
  operationId: string;
  requestId: string;
}

export type ResourceType = 'user' | 'department' | 'group' | 'report';

export interface AuditRecord {
  resourceType: ResourceType;
  resourceId: string;
  changes: Record<string, unknown>;
}

/** The audit entry of a change, to be written in the change's own transaction. */
export function auditWrite(ctx: ChangeContext, record: AuditRecord, at: string): Write {
  const id = newId();
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          ...auditKey(id),
          type: 'audit',
          id,
          at,
          actor: ctx.actor,
          operation: ctx.operationId,
          request_id: ctx.requestId,
          resource_type: record.resourceType,
          resource_id: record.resourceId,
          changes: record.changes,
          gsi1pk: AUDIT_PARTITION,
          gsi1sk: `${at}#${id}`,
        },
      },
    },
  };
}
