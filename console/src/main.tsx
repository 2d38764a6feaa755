import { render } from 'preact';
import { App } from './app';
import { session } from './session';
import { returningFromLogin, signInSettings } from './sign-in-settings';
import './styles.css';

/** Back from the deployment's login: the code becomes the session's token (or the sign-in screen says why not). */
async function finishLogin(): Promise<boolean> {
  const settings = signInSettings();
  if (!settings || !returningFromLogin()) return false;
  try {
    const { finishLogin } = await import('./sign-in');
    session.signIn(await finishLogin(settings));
  } catch (error) {
    session.signOut(`The sign-in did not complete: ${error instanceof Error ? error.message : String(error)}`);
  }
  return true;
}

async function start() {
  if (!(await finishLogin())) session.restore();
  render(<App />, document.getElementById('app')!);
}

void start();
