/**
 * Every change of a user — create, update, department move, delete — is
 * turned into writes here, so that one transaction always carries all of its
 * effects: the user item (conditional on the version that was read) and its
 * department copy, the claims of its e-mail, user name and external id, the counters it moves (both
 * departments' quota usage under their quota conditions, and the list
 * counters: users/counters.ts) and, added by the caller, the audit entry.
 */
import { StaleReadError } from '../db/errors';
import type { Write } from '../db/transact';
import { explainUsageFailure } from '../departments/errors';
import { raisedPart } from '../departments/quotas';
import { conflict, preconditionFailed } from '../problems';
import { claimFor, claimValue, releaseFor, type ClaimKind } from '../store/claims';
import { userWrites, type StoredUser, type User } from '../store/users';
import { addContribution, counterWrites, noDeltas } from './counters';

export interface UserChange {
  /** The user as read (null: it is being created). */
  before: StoredUser | null;
  /** The user as it will be (null: it is being deleted). */
  after: User | null;
  /** If-Match: fail with 412 unless the user is at this version. */
  expectedVersion?: number;
}

/** The values a user holds alone, each with its claim (lib/store/claims.ts) and the words of its 409. */
const CLAIMED: Array<{ kind: ClaimKind; field: 'email' | 'user_name' | 'external_id'; what: string }> = [
  { kind: 'email', field: 'email', what: 'The e-mail address' },
  { kind: 'user_name', field: 'user_name', what: 'The user name' },
  { kind: 'external_id', field: 'external_id', what: 'The external id' },
];

/** Claims taken and given up by the change. */
function claimWrites({ before, after }: UserChange): Write[] {
  const writes: Write[] = [];
  for (const { kind, field, what } of CLAIMED) {
    const held = before?.[field] ?? null;
    const wanted = after?.[field] ?? null;
    if (held !== null && wanted !== null && claimValue(kind, held) === claimValue(kind, wanted)) continue;
    if (before && held !== null) {
      writes.push(releaseFor(kind, held, before.id, () => new StaleReadError()));
    }
    if (after && wanted !== null) {
      writes.push(claimFor(kind, wanted, after.id, () => conflict(`${what} "${wanted}" is already in use.`, { field })));
    }
  }
  return writes;
}

function itemWrites({ before, after, expectedVersion }: UserChange): Write[] {
  const id = (after ?? before)!.id;
  if (!before)
    return userWrites(id, { before, after }, 1, { kind: 'new' }, () => conflict(`A user with id "${id}" already exists.`, { field: 'id' }));
  const staleOrPrecondition = () => (expectedVersion !== undefined ? preconditionFailed() : new StaleReadError());
  // A user held by a bulk move is changed only by that move (lib/departments/bulk-move/).
  return userWrites(
    id,
    { before, after },
    before.version + 1,
    { kind: 'version', version: expectedVersion ?? before.version },
    staleOrPrecondition,
  );
}

function counterDeltaWrites({ before, after }: UserChange, now: string): Write[] {
  const deltas = noDeltas();
  if (before) addContribution(deltas, before, -1);
  if (after) addContribution(deltas, after, 1);
  return counterWrites(deltas, (after ?? before)!.id, now, (departmentId, delta) =>
    explainUsageFailure(departmentId, raisedPart(delta.usage)),
  );
}

/** The writes of one user change, in a fixed order; the caller adds the audit entry. */
export function userChangeWrites(change: UserChange, now: string): Write[] {
  return [...itemWrites(change), ...claimWrites(change), ...counterDeltaWrites(change, now)];
}
