/**
 * One API read as a screen needs it: loading, the data, or the problem; again
 * whenever `key` changes (a filter, a cursor) and on `reload()`. An answer that
 * arrives after a newer request started is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Problem } from '../problems';

export type Answer<T> = { data?: T; error?: unknown; response: Response };

export interface RequestState<T> {
  loading: boolean;
  data?: T;
  problem?: Problem;
  reload: () => void;
}

export function useRequest<T>(request: () => Promise<Answer<T>>, key: unknown[]): RequestState<T> {
  const [state, setState] = useState<{ loading: boolean; data?: T; problem?: Problem; answered?: string }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  // Which request the state answers: a new key (or a reload) is loading from the render that asks for it, not only
  // once the effect that sends it runs (effects run after the paint, and the screen would show the old answer as current).
  const asked = JSON.stringify([...key, generation]);
  useEffect(() => {
    const id = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    request().then(
      ({ data, error, response }) => {
        if (id !== latest.current) return;
        setState(
          error || !response.ok
            ? { loading: false, problem: asProblem(error, response), answered: asked }
            : { loading: false, data, answered: asked },
        );
      },
      (error: unknown) => id === latest.current && setState({ loading: false, problem: unreachable(error), answered: asked }),
    );
    // The key's parts are the dependencies (a new filter or cursor asks again), not `request`, which is new each render.
  }, [...key, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { loading: state.loading || state.answered !== asked, data: state.data, problem: state.problem, reload };
}

/** A call that could not reach the service (the network, a browser that refused it) as a problem. */
export const unreachable = (error: unknown): Problem => ({ detail: `The service could not be reached (${String(error)}).` });

/** A failed answer as a problem: its problem details, or what its status says. */
export function asProblem(error: unknown, response: Response): Problem {
  if (error && typeof error === 'object') return { status: response.status, ...(error as Problem) };
  return { status: response.status, detail: `The request failed (${response.status} ${response.statusText}).` };
}
