/**
 * Slow changes (docs/safety.md): a change that has committed is never
 * answered with a 5xx because it was slow.
 *
 * A request's change context carries its deadline: the time its function may
 * still run, less ANSWER_MARGIN_MS for what follows the operation (keeping
 * the answer for its Idempotency-Key, sending it). Work that may outlast it
 * (the large changes of lib/groups/bulk-change.ts and
 * lib/departments/bulk-move) is awaited only until then: past it, the work
 * is handed to its healer, which the maintenance function runs every minute,
 * and the request answers 202 naming the resource to poll (StillApplying,
 * which lib/http/operation.ts and lib/http/scim.ts turn into that answer).
 * The work itself goes on in the background while the function lives: every
 * step of it is conditional on the state it expects, so it and the healer
 * never apply anything twice.
 *
 * Background work (no request, no deadline) simply runs to its end.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { log } from './log';

/** What a request answered with 202 shows its change on: a group's `bulk_status`, a department's users. */
export interface AppliedLater {
  type: 'group' | 'department';
  id: string;
}

/** The change has committed (or its commit is still in flight) and completes in the background. */
export class StillApplying extends Error {
  constructor(readonly resource: AppliedLater) {
    super(`the change of ${resource.type} ${resource.id} completes in the background`);
  }
}

/** Kept back from the function's time for what follows the operation: the idempotency record and the answer. */
export const ANSWER_MARGIN_MS = 5_000;

const windowScope = new AsyncLocalStorage<number>();

/** Runs `work` as if every request it makes had at most `ms` before its deadline (tests of slow changes). */
export function withAnswerWindow<T>(ms: number, work: () => T): T {
  return windowScope.run(ms, work);
}

/** When a request that may still run `remainingMs` must have its operation's answer (epoch ms). */
export function answerDeadline(remainingMs: number | undefined, now = Date.now()): number | undefined {
  const window = windowScope.getStore();
  if (remainingMs === undefined) return window === undefined ? undefined : now + window;
  const own = remainingMs - ANSWER_MARGIN_MS;
  return now + Math.max(0, window === undefined ? own : Math.min(own, window));
}

/**
 * Awaits `work` until `deadline` (no deadline: to its end). Answers whether it
 * finished in time; work left running is logged if it fails later.
 */
export async function finishedBy(deadline: number | undefined, work: Promise<unknown>, what: string): Promise<boolean> {
  if (deadline === undefined) {
    await work;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    const finished = await Promise.race([work.then(() => true as const), late]);
    if (!finished)
      work.catch((error: unknown) =>
        log('warn', `${what} failed after its request answered; its healer finishes it`, { error: error as Error }),
      );
    return finished;
  } finally {
    clearTimeout(timer);
  }
}
