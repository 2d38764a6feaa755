/**
 * `npm start` as a person runs it, for the tests of what it prints and keeps: in a process group of its own, on
 * a free port, with its data in the directory given; stopped with Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Past npm start's own wait for its services (two minutes), so that its own message is what a failure shows. */
export const START_TIMEOUT_MS = 150_000;

export interface StartedService {
  child: ChildProcess;
  /** The API's base URL, once the banner has printed it. */
  url: Promise<string>;
  /** Everything it printed so far, both streams. */
  output: () => string;
}

/**
 * Starts it with the test runner's environment, as a newcomer's shell has it: without the switch vitest.config.ts
 * sets to keep the SDK's warning out of test output, and with `env` over it (`undefined` unsets a variable).
 */
export function startService(dataDir: string, env: Record<string, string | undefined> = {}): StartedService {
  const merged: Record<string, string | undefined> = { ...process.env, PORT: '0', LOCAL_DATA_DIR: dataDir, ...env };
  delete merged.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const child = spawn('npm', ['start'], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const ready = /API\s+(http:\/\/\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return { child, url, output: () => output };
}

/** Ctrl-C, as a person stops it: SIGINT to its process group; start.ts stops what it started. */
export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGINT');
  const timeout = new Promise((resolve) => setTimeout(resolve, 15_000, 'timeout'));
  if ((await Promise.race([exited, timeout])) === 'timeout') process.kill(-child.pid, 'SIGKILL');
}
