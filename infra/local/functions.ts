/**
 * The local Lambda service: runs each function of the deployment from its
 * bundle (infra/build.ts) in processes of its own (sandbox.mjs) on the Lambda
 * runtime's Node version (infra/lambda-node.ts), with
 * exactly the environment the synthesized template gives it (deployment.ts)
 * plus what the Lambda runtime sets and the local stand-ins' endpoints.
 *
 * Like Lambda: a sandbox runs one invocation at a time; a function's pool
 * grows on demand when all its sandboxes are busy (up to a cap, then requests
 * wait) and keeps them warm; an init past 10 s is tried again within the
 * invocation that waits for it, the init and the handler together within the
 * template's Timeout; a handler that throws fails the invocation with
 * its error in the function's log; an invocation past the template's Timeout
 * ends its sandbox ("Task timed out"); a sandbox that dies is replaced by a
 * fresh one on the next invocation. Each sandbox has its own module instances,
 * so no module-level state is shared between functions, or between sandboxes.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import type { Context } from 'aws-lambda';
import { FUNCTION_RUNTIME } from '../bundling';
import { findLambdaNode } from '../lambda-node';
import { LOCAL_ACCOUNT, LOCAL_REGION, type LocalFunction } from './deployment';
import { LOCAL_CREDENTIALS } from './services';

export interface Endpoints {
  dynamodb: string;
  s3: string;
  ses: string;
  sqs: string;
}

/** How an invocation failed, as Lambda reports it: the handler's error, a timeout, or a sandbox that died. */
export class FunctionError extends Error {
  constructor(
    readonly handler: string,
    readonly errorType: string,
    message: string,
  ) {
    super(`${handler}: ${errorType}: ${message}`);
    this.name = 'FunctionError';
  }
}

export interface FunctionHostOptions {
  /** Where infra/build.ts wrote the bundles: `<bundlesDir>/<handler>/index.mjs`. */
  bundlesDir: string;
  functions: readonly LocalFunction[];
  /**
   * The endpoints a function's AWS clients use (lib/config.ts reads them from DYNAMODB_ENDPOINT, S3_ENDPOINT,
   * SES_ENDPOINT, SQS_ENDPOINT); called once per function and deployment, so each function may have endpoints of its own.
   */
  endpointsFor: (fn: LocalFunction) => Promise<Endpoints>;
  /** Each line a function writes to stdout or stderr, and the errors the runtime logs for it. */
  output: (handler: string, line: string) => void;
  /** Sandboxes per function at most; an invocation waits when all are busy. Default 8. */
  maxSandboxes?: number;
  /** How long a sandbox's init may take before it is tried again within its invocation: Lambda's 10 s, unless a test says. */
  initTimeoutMs?: number;
  /** The Node binary the sandboxes run on; default the Lambda runtime's (infra/lambda-node.ts), which `npm ci` installs. */
  node?: string;
}

export interface InvokeOptions {
  /** The export to call; background functions run locally through `pollLocally`. Default `handler`. */
  method?: string;
  requestId?: string;
}

/** A sandbox's cold start: the process's start and the bundle's import, then its first invocation. */
export interface ColdStart {
  handler: string;
  initMs: number;
  firstInvocationMs?: number;
}

export interface FunctionHost {
  /** Runs one invocation; rejects with a FunctionError when it fails as Lambda reports failures. */
  invoke(handler: string, event: unknown, options?: InvokeOptions): Promise<unknown>;
  /** The function as a Lambda handler (the gateway's `loadHandler`); the request id comes from its context. */
  handler(name: string): (event: unknown, context: Pick<Context, 'awsRequestId'>) => Promise<unknown>;
  has(handler: string): boolean;
  /**
   * A function as now deployed, and the endpoints its AWS clients use: what a local event source mapping
   * (queues.ts) polls with, as Lambda's polls with the function's role.
   */
  deployed(handler: string): { fn: LocalFunction; endpoints: () => Promise<Endpoints> };
  /**
   * Deploys other functions (another table, other settings): sandboxes of the previous deployment end, the idle
   * ones now and the busy ones once their invocation is done; the next invocations start fresh ones.
   */
  redeploy(functions: readonly LocalFunction[]): void;
  coldStarts(): readonly ColdStart[];
  /** Ends every sandbox. */
  close(): Promise<void>;
}

const DEFAULT_MAX_SANDBOXES = 8;
const LAMBDA_INIT_TIMEOUT_MS = 10_000;

/** A sandbox's init that passed Lambda's 10 s: the invocation that waits for it tries the init again. */
class InitTimedOut extends Error {}
/** A line no longer than this; the rest of a longer one becomes the next line (CloudWatch splits at 256 KB). */
const MAX_LINE_CHARS = 256 * 1024;
const SANDBOX_SOURCE = new URL('./sandbox.mjs', import.meta.url);

interface Pending {
  id: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

interface Sandbox {
  process: ChildProcess;
  exited: Promise<void>;
  ready: Promise<void>;
  pending?: Pending;
  /** From its acquisition for an invocation until that invocation ends (pending is set only once it is sent). */
  busy: boolean;
  retired: boolean;
  invocations: number;
}

interface Deployed {
  fn: LocalFunction;
  endpoints: Promise<Endpoints>;
  sandboxes: Set<Sandbox>;
  idle: Sandbox[];
  /** Invocations waiting for a sandbox, woken one at a time when one frees (or all, on a redeploy). */
  waiting: Array<() => void>;
}

/** The variables the Lambda runtime sets in every sandbox, besides the function's own. */
function runtimeEnvironment(fn: LocalFunction, bundleDir: string, endpoints: Endpoints): Record<string, string> {
  const name = `DeptAdminStack-${fn.logicalId}`;
  return {
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'local',
    AWS_EXECUTION_ENV: `AWS_Lambda_${FUNCTION_RUNTIME.name}`,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: 'local',
    LAMBDA_TASK_ROOT: bundleDir,
    _HANDLER: 'index.handler',
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    // The local stand-ins, which lib/config.ts reads; on AWS they are unset and the SDK finds the real endpoints.
    DYNAMODB_ENDPOINT: endpoints.dynamodb,
    S3_ENDPOINT: endpoints.s3,
    SES_ENDPOINT: endpoints.ses,
    SQS_ENDPOINT: endpoints.sqs,
  };
}

/** Splits what a sandbox writes into lines, per stream; `flush` hands over an unterminated last line. */
function lineSplitter(emit: (line: string) => void) {
  let partial = '';
  return {
    write(text: string) {
      partial += text;
      let newline: number;
      while ((newline = partial.indexOf('\n')) >= 0 || partial.length > MAX_LINE_CHARS) {
        const end = newline >= 0 ? Math.min(newline, MAX_LINE_CHARS) : MAX_LINE_CHARS;
        emit(partial.slice(0, end));
        partial = partial.slice(newline === end ? end + 1 : end);
      }
    },
    flush() {
      if (partial) emit(partial);
      partial = '';
    },
  };
}

export function startFunctionHost(options: FunctionHostOptions): FunctionHost {
  const maxSandboxes = options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES;
  const initTimeoutMs = options.initTimeoutMs ?? LAMBDA_INIT_TIMEOUT_MS;
  const node = options.node ?? lambdaNode();
  const coldStarts: ColdStart[] = [];
  let deployed = new Map<string, Deployed>();
  let closed = false;

  function deploy(functions: readonly LocalFunction[]): Map<string, Deployed> {
    return new Map(
      functions.map((fn) => {
        // Once per function and deployment, on its first invocation.
        let endpoints: Promise<Endpoints> | undefined;
        const entry: Deployed = {
          fn,
          get endpoints() {
            endpoints ??= options.endpointsFor(fn);
            return endpoints;
          },
          sandboxes: new Set(),
          idle: [],
          waiting: [],
        };
        return [fn.handler, entry];
      }),
    );
  }
  deployed = deploy(options.functions);

  /**
   * Starts a sandbox for the invocation that will wait on its `ready`. Its init has Lambda's 10 s; `retryWithinMs`:
   * it is the init tried again inside an invocation (Lambda's "Phase: invoke"), within what is left of its Timeout.
   */
  function startSandbox(entry: Deployed, endpoints: Endpoints, retryWithinMs?: number): Sandbox {
    const { fn } = entry;
    const bundleDir = join(options.bundlesDir, fn.handler);
    const nodeOptions = (fn.environment.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
    const child = fork(SANDBOX_SOURCE, [join(bundleDir, 'index.mjs')], {
      execPath: node,
      cwd: bundleDir,
      // Exactly this: no variable of the host's reaches the function.
      env: { ...fn.environment, ...runtimeEnvironment(fn, bundleDir, endpoints) },
      // The template's NODE_OPTIONS (--enable-source-maps) as the process's own options; the memory size as its heap's limit.
      execArgv: [...nodeOptions, `--max-old-space-size=${fn.memoryMb}`],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const log = (line: string) => options.output(fn.handler, line);
    const streams = { stdout: lineSplitter(log), stderr: lineSplitter(log) };
    const startedAt = performance.now();
    const coldStart: ColdStart = { handler: fn.handler, initMs: 0 };
    let settleReady!: { resolve: () => void; reject: (error: unknown) => void };
    const ready = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const sandbox: Sandbox = { process: child, exited, ready, busy: true, retired: false, invocations: 0 };

    const fail = (error: FunctionError) => {
      const pending = sandbox.pending;
      sandbox.pending = undefined;
      if (pending) {
        clearTimeout(pending.timer);
        pending.reject(error);
      }
      settleReady.reject(error);
    };
    // Lambda gives a sandbox's init 10 s; past them it tries the init again in the invocation, with the function's Timeout.
    const initLimitMs = retryWithinMs ?? initTimeoutMs;
    const initTimer = setTimeout(() => {
      log(`INIT_REPORT Init Duration: ${initLimitMs} ms Phase: ${retryWithinMs === undefined ? 'init' : 'invoke'} Status: timeout`);
      if (retryWithinMs === undefined) {
        settleReady.reject(new InitTimedOut(`${fn.handler}: init timed out after ${initLimitMs} ms`));
      } else {
        const seconds = fn.timeoutSeconds.toFixed(2);
        fail(new FunctionError(fn.handler, 'Sandbox.Timedout', `Task timed out after ${seconds} seconds`));
      }
      void discard(entry, sandbox);
    }, initLimitMs);
    child.on('message', (message: SandboxMessage) => {
      if (message.type === 'output') streams[message.stream].write(message.text);
      else if (message.type === 'ready') {
        clearTimeout(initTimer);
        coldStart.initMs = Math.round(performance.now() - startedAt);
        coldStarts.push(coldStart);
        settleReady.resolve();
      } else if (message.type === 'init-error') {
        clearTimeout(initTimer);
        log(`INIT_ERROR\tInit Error\t${JSON.stringify(message.error)}`);
        fail(new FunctionError(fn.handler, message.error.errorType, message.error.errorMessage));
        void discard(entry, sandbox);
      } else if (message.type === 'result') {
        const pending = sandbox.pending;
        if (!pending || pending.id !== message.id) return;
        sandbox.pending = undefined;
        clearTimeout(pending.timer);
        streams.stdout.flush();
        streams.stderr.flush();
        if (sandbox.invocations === 1) coldStart.firstInvocationMs = Math.round(performance.now() - startedAt - coldStart.initMs);
        if (message.ok) pending.resolve(JSON.parse(message.json));
        else {
          // What the Node runtime logs for a handler's error, and what Lambda returns for it.
          log(`${pending.id}\tERROR\tInvoke Error \t${JSON.stringify(message.error)}`);
          pending.reject(new FunctionError(fn.handler, message.error.errorType, message.error.errorMessage));
        }
        release(entry, sandbox);
      }
    });
    // The process could not start (no such binary), or a message could not reach it.
    child.on('error', (error) => {
      log(`ERROR\tSandbox \t${JSON.stringify({ errorType: error.name, errorMessage: error.message })}`);
      fail(new FunctionError(fn.handler, 'Runtime.ExitError', error.message));
    });
    // An uncaught exception or unhandled rejection ends the sandbox (sandbox.mjs logs it), as it ends Lambda's runtime process.
    child.on('exit', (code) => {
      clearTimeout(initTimer);
      streams.stdout.flush();
      streams.stderr.flush();
      fail(new FunctionError(fn.handler, 'Runtime.ExitError', `the sandbox exited with code ${code}`));
      entry.sandboxes.delete(sandbox);
      entry.idle = entry.idle.filter((other) => other !== sandbox);
      // A waiting invocation may start the sandbox this one leaves room for.
      entry.waiting.shift()?.();
    });
    // The sandbox sends its writes as messages (sandbox.mjs); anything that still reaches the streams goes to the log too.
    child.stdout!.on('data', (chunk: Buffer) => streams.stdout.write(chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => streams.stderr.write(chunk.toString('utf8')));
    // Handled by the invocation that waits for it.
    ready.catch(() => {});
    entry.sandboxes.add(sandbox);
    return sandbox;
  }

  async function discard(entry: Deployed, sandbox: Sandbox): Promise<void> {
    entry.sandboxes.delete(sandbox);
    entry.idle = entry.idle.filter((other) => other !== sandbox);
    sandbox.process.kill('SIGKILL');
    await sandbox.exited;
  }

  /** A sandbox of the current deployment for the next invocation: an idle one, a new one under the cap, else the next one freed. */
  async function acquire(handler: string): Promise<{ entry: Deployed; sandbox: Sandbox; endpoints: Endpoints }> {
    for (;;) {
      if (closed) throw new Error('the function host is closed');
      const entry = deployed.get(handler);
      if (!entry) throw new Error(`the deployment has no function ${handler}`);
      const endpoints = await entry.endpoints;
      const idle = entry.idle.pop();
      if (idle) {
        idle.busy = true;
        return { entry, sandbox: idle, endpoints };
      }
      if (entry.sandboxes.size < maxSandboxes) return { entry, sandbox: startSandbox(entry, endpoints), endpoints };
      await new Promise<void>((wake) => entry.waiting.push(wake));
    }
  }

  function release(entry: Deployed, sandbox: Sandbox): void {
    sandbox.busy = false;
    if (sandbox.retired || closed) void discard(entry, sandbox);
    else {
      entry.idle.push(sandbox);
      // A warm sandbox does not keep the host's process alive.
      unref(sandbox.process);
    }
    entry.waiting.shift()?.();
  }

  async function invoke(handler: string, event: unknown, invokeOptions: InvokeOptions = {}): Promise<unknown> {
    const acquired = await acquire(handler);
    const { entry } = acquired;
    let sandbox = acquired.sandbox;
    ref(sandbox.process);
    const { fn } = entry;
    let deadline: number | undefined;
    try {
      await sandbox.ready;
    } catch (error) {
      if (!(error instanceof InitTimedOut)) throw error;
      // In the slot the timed-out sandbox left (taken at once, before any waiting invocation can take it).
      deadline = Date.now() + fn.timeoutSeconds * 1000;
      sandbox = startSandbox(entry, acquired.endpoints, fn.timeoutSeconds * 1000);
      ref(sandbox.process);
      await sandbox.ready;
    }
    const id = invokeOptions.requestId ?? randomUUID();
    const name = `DeptAdminStack-${fn.logicalId}`;
    const timeoutMs = deadline === undefined ? fn.timeoutSeconds * 1000 : Math.max(0, deadline - Date.now());
    sandbox.invocations++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (sandbox.pending?.id !== id) return;
        sandbox.pending = undefined;
        // Lambda ends the sandbox of an invocation past its Timeout; the next invocation gets a fresh one.
        options.output(handler, `${id} Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`);
        reject(new FunctionError(handler, 'Sandbox.Timedout', `Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`));
        void discard(entry, sandbox);
      }, timeoutMs);
      sandbox.pending = { id, resolve, reject, timer };
      const context = {
        functionName: name,
        functionVersion: '$LATEST',
        invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${name}`,
        memoryLimitInMB: String(fn.memoryMb),
        awsRequestId: id,
        logGroupName: `/aws/lambda/${name}`,
        logStreamName: 'local',
        deadline: Date.now() + timeoutMs,
      };
      sandbox.process.send({ id, method: invokeOptions.method ?? 'handler', event, context });
    });
  }

  function retireAll(entries: Iterable<Deployed>): Promise<unknown> {
    const ending: Array<Promise<unknown>> = [];
    for (const entry of entries) {
      for (const sandbox of entry.sandboxes) {
        sandbox.retired = true;
        if (!sandbox.busy) ending.push(discard(entry, sandbox));
      }
      // They look again, in the new deployment.
      for (const wake of entry.waiting.splice(0)) wake();
    }
    return Promise.all(ending);
  }

  return {
    invoke,
    handler: (name) => (event, context) => invoke(name, event, { requestId: context.awsRequestId }),
    has: (handler) => deployed.has(handler),
    deployed(handler) {
      const entry = deployed.get(handler);
      if (!entry) throw new Error(`the deployment has no function ${handler}`);
      return { fn: entry.fn, endpoints: () => entry.endpoints };
    },
    redeploy(functions) {
      const previous = deployed;
      deployed = deploy(functions);
      void retireAll(previous.values());
    },
    coldStarts: () => coldStarts,
    async close() {
      closed = true;
      const entries = [...deployed.values()];
      for (const entry of entries) {
        for (const sandbox of entry.sandboxes) {
          const pending = sandbox.pending;
          sandbox.pending = undefined;
          if (pending) {
            clearTimeout(pending.timer);
            pending.reject(new FunctionError(entry.fn.handler, 'Runtime.ExitError', 'the function host closed'));
          }
        }
      }
      await Promise.all(entries.flatMap((entry) => [...entry.sandboxes].map((sandbox) => discard(entry, sandbox))));
    },
  };
}

type SandboxError = { errorType: string; errorMessage: string; stack: string[] };
type SandboxMessage =
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'ready' }
  | { type: 'init-error'; error: SandboxError }
  | { type: 'result'; id: string; ok: true; json: string }
  | { type: 'result'; id: string; ok: false; error: SandboxError };

/** The Lambda runtime's Node, or why it is missing (`npm ci` installs it). */
function lambdaNode(): string {
  const { node, reason } = findLambdaNode();
  if (!node) throw new Error(`the function sandboxes run on the Lambda runtime's Node (${FUNCTION_RUNTIME.name}): ${reason}`);
  return node.path;
}

/** A child keeps the host's event loop alive through its handle and its IPC channel and pipes: all of them, or none. */
function unref(child: ChildProcess): void {
  child.unref();
  child.channel?.unref();
  (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
}

function ref(child: ChildProcess): void {
  child.ref();
  child.channel?.ref();
  (child.stdout as unknown as { ref?: () => void } | null)?.ref?.();
  (child.stderr as unknown as { ref?: () => void } | null)?.ref?.();
}
