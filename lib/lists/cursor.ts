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

export function decodeCursor(list: string, cursor: string): CursorState {
  const [payload, check, ...rest] = cursor.split('.');
  if (!payload || !check || rest.length > 0 || digest(payload, list) !== check) {
    throw invalid('is not a next_cursor of this list with these sort and query parameters; start again without a cursor');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cannot be read');
  }
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
