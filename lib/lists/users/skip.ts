/**
 * An offset into a list sorted by last name that no filter narrows: the
 * last-name counters say how many users bear each name, so instead of
 * reading the users it skips, the list reads the names it skips (a few bytes
 * each, one counter for all who share a name) and starts at the name that
 * holds the offset, reading and dropping only the users of that name before
 * it. An offset may read what it skips; this reads far less.
 */
import type { Direction } from '../../schemas/enums';
import { namesInOrder, type NameScope } from '../../store/name-counts';
import { compareCodePoints } from '../../text';
import type { Position } from '../streams';

/**
 * Where a list of the users of `scopes` stands `skip` users in: after "nothing" of one name, and how many of that
 * name to skip; undefined when the offset is past the end of the list.
 */
export async function skipByNames(
  scopes: NameScope[],
  skip: number,
  direction: Direction,
): Promise<{ after: Position; skip: number } | undefined> {
  const sign = direction === 'desc' ? -1 : 1;
  const streams = scopes.map((scope) => namesInOrder(scope, direction === 'desc'));
  try {
    const heads = await Promise.all(streams.map((s) => s.next()));
    let before = 0;
    for (;;) {
      // The next name in list order, and the users who bear it in every scope.
      let name: string | undefined;
      for (const head of heads)
        if (!head.done && (name === undefined || sign * compareCodePoints(head.value[0], name) < 0)) name = head.value[0];
      if (name === undefined) return undefined;
      let users = 0;
      for (const [i, head] of heads.entries()) {
        if (head.done || head.value[0] !== name) continue;
        users += head.value[1];
        heads[i] = await streams[i].next();
      }
      // The list goes on after "nothing" of this name: its every user, by id (an id is never empty).
      if (before + users > skip) return { after: { field: name, id: '' }, skip: skip - before };
      before += users;
    }
  } finally {
    await Promise.all(streams.map((s) => s.return(undefined)));
  }
}
