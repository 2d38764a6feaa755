/** What a change did: a busy line while it runs, then a sentence (class `done`) or the problem (with `children`, e.g. a Reload button). */
import type { ComponentChildren } from 'preact';
import { ProblemMessage } from '../problems';
import { Busy } from './parts';
import type { Change, ChangeState } from './use-change';

export function ChangeResult({ change, children }: { change: ChangeState; children?: ComponentChildren }) {
  return (
    <>
      <Busy when={!!change.busy}>{change.busy}</Busy>
      {change.done && (
        <p class="done" role="status">
          {change.done}
        </p>
      )}
      <ProblemMessage problem={change.problem}>{children}</ProblemMessage>
    </>
  );
}

/** A Reload button beside a 412: the person sees the other change, then makes theirs again. */
export function StaleReload({ change, reload }: { change: Change; reload: () => void }) {
  if (change.problem?.status !== 412) return null;
  return (
    <button
      type="button"
      onClick={() => {
        change.clear();
        reload();
      }}
    >
      Reload
    </button>
  );
}
