/**
 * One change through the API as a screen makes it: busy while it runs (long work, E3 or E5 of many users, says so),
 * then its result in a sentence or its problem. Shown by <ChangeResult>.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useState } from 'preact/hooks';
import type { Problem } from '../problems';
import { asProblem, unreachable, type Answer } from './use-request';

export interface ChangeState {
  busy?: string;
  done?: ComponentChildren;
  problem?: Problem;
}

export interface Change extends ChangeState {
  /** Runs `call`, saying `busy` meanwhile; on success shows `done(data)` (and returns true), else the problem. */
  run<T>(busy: string, call: () => Promise<Answer<T>>, done: (data: T | undefined) => ComponentChildren): Promise<boolean>;
  clear(): void;
}

export function useChange(): Change {
  const [state, setState] = useState<ChangeState>({});
  const run = useCallback(async <T>(busy: string, call: () => Promise<Answer<T>>, done: (data: T | undefined) => ComponentChildren) => {
    setState({ busy });
    try {
      const { data, error, response } = await call();
      if (error || !response.ok) {
        setState({ problem: asProblem(error, response) });
        return false;
      }
      setState({ done: done(data) });
      return true;
    } catch (error) {
      setState({ problem: unreachable(error) });
      return false;
    }
  }, []);
  const clear = useCallback(() => setState({}), []);
  return { ...state, run, clear };
}
