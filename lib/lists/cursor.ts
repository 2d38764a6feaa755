/**
 * Cursors: where a list stopped, opaque to clients. A cursor holds the
 * position of the last item returned (its sort field and id) and the offset
 * of the next page, bound to its list (scope, sort and filters) and checked
 * by a digest over both: a cursor given to another list, or altered in any
 * way, is a 400, so it can never make a list read outside itself. Walking by
 * cursor resumes strictly after the last position, so an item that stays
 * where it is in the list is neither skipped nor repeated, whatever is
 * inserted or deleted meanwhile.
 */
import { createHash } from 'node:crypto';
import { validationError } from '../problems';
import type { Position } from './streams';

const VERSION = 1;

export interface CursorState {
  after: Position;
  /** The offset of the first item of the page the cursor opens (informational: `offset` of that page). */
  offset: number;
}

const digest = (payload: string, list: string) => createHash('sha256').update(`${payload}\n${list}`).digest('base64url').slice(0, 22);

/** `list` names the list exactly: its scope, sort and filters, as the caller writes them. */
export function encodeCursor(list: string, state: CursorState): string {
  const payload = Buffer.from(JSON.stringify([VERSION, state.after.field, state.after.id, state.offset]), 'utf8').toString('base64url');
  return `${payload}.${digest(payload, list)}`;
}

const invalid = (message: string) => validationError([{ field: 'cursor', message }], 'The cursor is not valid for this list.');

/** A cursor's payload, once its digest says it was made for this list. */
function verifiedPayload(list: string, cursor: string, mismatch: string): unknown {
  const [payload, check, ...rest] = cursor.split('.');
  if (!payload || !check || rest.length > 0 || digest(payload, list) !== check) throw invalid(mismatch);
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cannot be read');
  }
}

export function decodeCursor(list: string, cursor: string): CursorState {
  const parsed = verifiedPayload(
    list,
    cursor,
    'is not a next_cursor of this list with these sort and query parameters; start again without a cursor',
  );
  if (
    !Array.isArray(parsed) ||
    parsed[0] !== VERSION ||
    typeof parsed[1] !== 'string' ||
    typeof parsed[2] !== 'string' ||
    !Number.isSafeInteger(parsed[3])
  ) {
    throw invalid('cannot be read');
  }
  return { after: { field: parsed[1], id: parsed[2] }, offset: parsed[3] };
}

/** The first element of a positions cursor's payload: no cursor of the other kind reads as one. */
const POSITIONS_VERSION = 'p1';

/**
 * A cursor of a list read partition by partition, each from a place of its own (the change feed's shards):
 * one position per partition, bound to its list by the same digest.
 */
export function encodePositionsCursor(list: string, positions: readonly string[]): string {
  const payload = Buffer.from(JSON.stringify([POSITIONS_VERSION, ...positions]), 'utf8').toString('base64url');
  return `${payload}.${digest(payload, list)}`;
}

/** The positions of a cursor made by encodePositionsCursor for this list; each still to be checked by its reader. */
export function decodePositionsCursor(list: string, cursor: string): string[] {
  const parsed = verifiedPayload(list, cursor, 'is not a next_cursor of this list with these parameters; start again without a cursor');
  if (!Array.isArray(parsed) || parsed[0] !== POSITIONS_VERSION || !parsed.slice(1).every((p) => typeof p === 'string')) {
    throw invalid('cannot be read');
  }
  return parsed.slice(1) as string[];
}
