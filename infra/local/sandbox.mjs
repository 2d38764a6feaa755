/**
 * One Lambda sandbox of the local function host (functions.ts): a Node process
 * of the Lambda runtime's version (infra/lambda-node.ts) that imports one
 * function's bundle (the init phase) and then runs one invocation at a time,
 * as the Lambda Node runtime does. Plain JavaScript: it runs the bundle as it
 * deploys, with no TypeScript loader in between. Events and results cross the
 * IPC channel as JSON, as they cross Lambda's runtime API.
 *
 * What the function writes to stdout and stderr goes to the host on the same
 * channel as the results, so every line it wrote during an invocation arrives
 * before that invocation's result.
 */
import { pathToFileURL } from 'node:url';

const bundle = process.argv[2];
const send = (message, done) => process.send(message, undefined, undefined, done);

for (const stream of ['stdout', 'stderr']) {
  process[stream].write = (chunk, encoding, callback) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    send({ type: 'output', stream, text });
    (typeof encoding === 'function' ? encoding : callback)?.();
    return true;
  };
}

const describe = (error) =>
  error instanceof Error
    ? { errorType: error.name, errorMessage: error.message, stack: String(error.stack ?? '').split('\n') }
    : { errorType: typeof error, errorMessage: String(error), stack: [] };

// As the Node runtime does: an uncaught exception or unhandled rejection is logged and ends the sandbox.
const crash = (error) => {
  const line = `ERROR\tUncaught Exception \t${JSON.stringify(describe(error))}\n`;
  send({ type: 'output', stream: 'stderr', text: line }, () => process.exit(129));
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// The host went away: so does its sandbox.
process.on('disconnect', () => process.exit(0));

const unsupported = () => {
  throw new Error('callback-style completion is not supported: return a promise');
};

/** The Lambda context: the host sends its data, the methods are made here. */
function contextOf({ deadline, ...data }) {
  return {
    ...data,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

let module;
try {
  module = await import(pathToFileURL(bundle).href);
  send({ type: 'ready' });
} catch (error) {
  // Lambda reports an init failure as the invocation's error and starts a new sandbox for the next one: the host ends this one.
  send({ type: 'init-error', error: describe(error) });
}

process.on('message', async ({ id, method, event, context }) => {
  try {
    const entry = module[method];
    if (typeof entry !== 'function') throw new Error(`${bundle} exports no function ${method}`);
    const result = await entry(event, contextOf(context));
    // Lambda returns the result as JSON: what cannot be serialized fails the invocation.
    send({ type: 'result', id, ok: true, json: JSON.stringify(result) ?? 'null' });
  } catch (error) {
    send({ type: 'result', id, ok: false, error: describe(error) });
  }
});
