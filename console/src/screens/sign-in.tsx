/** Signing in: the deployment's login when it has one, and always a pasted token (the local tokens, a script's token). */
import { useState } from 'preact/hooks';
import { session } from '../session';
import { signInSettings } from '../sign-in-settings';

export function SignIn({ reason }: { reason?: string }) {
  const settings = signInSettings();
  const [token, setToken] = useState('');
  return (
    <main id="main" class="sign-in">
      <h1>Admin console</h1>
      {reason && (
        <p class="problem" role="alert">
          {reason}
        </p>
      )}
      {settings && (
        <p>
          <button type="button" class="primary" onClick={() => void import('../sign-in').then(({ startLogin }) => startLogin(settings))}>
            Sign in
          </button>
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) session.signIn(token.trim());
        }}
      >
        <label for="token">{settings ? 'Or paste an API token' : 'API token'}</label>
        <input id="token" type="password" autoComplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} />
        <p class="hint">The token stays in this tab only and is forgotten when you sign out.</p>
        <button type="submit">Use this token</button>
      </form>
    </main>
  );
}
