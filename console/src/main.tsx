import { render } from 'preact';
import { App } from './app';
import { session } from './session';
import { finishLogin, signInSettings } from './sign-in';
import './styles.css';

async function start() {
  const settings = signInSettings();
  const fromLogin = settings
    ? await finishLogin(settings).catch((error: unknown) => {
        session.signOut(`The sign-in did not complete: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
    : undefined;
  if (fromLogin) session.signIn(fromLogin);
  else session.restore();
  render(<App />, document.getElementById('app')!);
}

void start();
