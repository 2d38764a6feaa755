/**
 * Which changes a webhook receives: each filter that lists anything must
 * let the change through (resource type, operation), and no change by an
 * excluded actor passes (a client leaves out its own writes, which other
 * directories echo back to the system that made them).
 */
import { validationError } from '../problems';
import { auditedOperation, routes } from '../routes';
import { SYSTEM_OPERATIONS } from '../schemas/enums';
import type { AuditEntry } from '../schemas/responses';

/** Every `operation` an audit entry can carry: each route that changes something, and the service's own. */
export const auditedOperations = (): string[] => [
  ...new Set([
    ...routes.filter((route) => route.method !== 'GET' && route.access !== 'public').map((route) => auditedOperation(route.name)),
    ...SYSTEM_OPERATIONS,
  ]),
];

/** A 400 unless every operation of a filter is one the audit trail records. */
export function checkOperations(operations: readonly string[] | undefined): void {
  if (!operations?.length) return;
  const known = new Set(auditedOperations());
  const unknown = operations.filter((operation) => !known.has(operation));
  if (unknown.length > 0)
    throw validationError(
      unknown.map((operation) => ({
        field: 'operations',
        message: `"${operation}" is not an operation the audit trail records (an operation name such as createUser, or a contract label such as E2)`,
      })),
    );
}

export interface WebhookFilters {
  resource_types: readonly string[];
  operations: readonly string[];
  exclude_actors: readonly string[];
}

export function matchesFilters(filters: WebhookFilters, change: Pick<AuditEntry, 'resource_type' | 'operation' | 'actor'>): boolean {
  if (filters.resource_types.length > 0 && !filters.resource_types.includes(change.resource_type)) return false;
  if (filters.operations.length > 0 && !filters.operations.includes(change.operation)) return false;
  return !filters.exclude_actors.includes(change.actor);
}
