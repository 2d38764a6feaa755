/**
 * Who is signed in: a bearer token, kept in this tab's session storage only
 * (never in local storage or a cookie), from the link `npm start` prints
 * (`#token=...`: a fragment, never sent to the server), a pasted token, or the
 * deployment's OAuth login (sign-in.ts). Signing out forgets it.
 */
import { useEffect, useState } from 'preact/hooks';

const TOKEN_KEY = 'dept-admin-console-token';

export type SessionState =
  { status: 'signed-out'; reason?: string } | { status: 'signed-in'; token: string; canWrite: boolean | undefined };

let state: SessionState = { status: 'signed-out' };
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  listeners.forEach((listener) => listener());
}

/** A JWT's `scope` claim, when the token is a JWT (the deployment's tokens); undefined for an opaque token (the local ones). */
function jwtScopes(token: string): string[] | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims = JSON.parse(atob(parts[1].replace(/-/g, '+').replace(/_/g, '/'))) as { scope?: unknown };
    return typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  } catch {
    return undefined;
  }
}

/**
 * Whether the token may change data. A JWT says so in its scopes; an opaque token is asked the API itself: a dry run
 * of E3 on a department that does not exist changes nothing, and the gateway refuses it with 403 to a read-only token
 * before anything runs (any other answer means the token may write).
 */
async function probeWrite(token: string): Promise<boolean> {
  const scopes = jwtScopes(token);
  if (scopes) return scopes.includes('admin/write');
  const base = new URL('.', location.href).href;
  const response = await fetch(new URL('v2/departments/console-write-probe/users?dry_run=true', base), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ user_ids: ['console-write-probe'] }),
  });
  await response.text();
  return response.status !== 403;
}

export const session = {
  token: () => (state.status === 'signed-in' ? state.token : undefined),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  current: () => state,
  signIn(token: string) {
    sessionStorage.setItem(TOKEN_KEY, token);
    set({ status: 'signed-in', token, canWrite: undefined });
    probeWrite(token).then(
      (canWrite) => state.status === 'signed-in' && state.token === token && set({ ...state, canWrite }),
      () => state.status === 'signed-in' && state.token === token && set({ ...state, canWrite: false }),
    );
  },
  signOut(reason?: string) {
    sessionStorage.removeItem(TOKEN_KEY);
    set({ status: 'signed-out', reason });
  },
  expired() {
    if (state.status === 'signed-in') session.signOut('The token was refused (expired or revoked): sign in again.');
  },
  /** At start: a token in the fragment (then removed from the address bar and history), else the tab's stored one. */
  restore() {
    const fromLink = /^#token=([^&]+)/.exec(location.hash);
    if (fromLink) {
      history.replaceState(null, '', `${location.pathname}${location.search}#/`);
      session.signIn(decodeURIComponent(fromLink[1]));
      return;
    }
    const stored = sessionStorage.getItem(TOKEN_KEY);
    if (stored) session.signIn(stored);
  },
};

export function useSession(): SessionState {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    setCurrent(state);
    return session.subscribe(() => setCurrent(state));
  }, []);
  return current;
}

/** Whether to show what changes data: only once the token is known to be allowed to (no button that would get a 403). */
export function useCanWrite(): boolean {
  const current = useSession();
  return current.status === 'signed-in' && current.canWrite === true;
}
