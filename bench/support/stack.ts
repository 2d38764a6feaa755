/**
 * The service as `npm start` runs it (infra/local/start.ts), on a table of the bench's: every function from the bundle
 * the stack builds, in sandboxes of its own on the Lambda runtime's Node, each AWS call checked against its role,
 * behind the local gateway; with the background jobs unless `background: false`. The one way a bench section (the
 * console, webhooks, rules) starts it. `onInvoke` sees each invocation the background jobs make.
 */
import type { FunctionHost } from '../../infra/local/functions';
import { projectRoot, progress } from './util';

export const WRITE_TOKEN = 'bench-write-token';

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(
  env: Record<string, string>,
  table: string,
  options: { background?: boolean; onInvoke?: (...args: Parameters<FunctionHost['invoke']>) => void } = {},
) {
  const { prepareStack } = await import('../../infra/local/prepare');
  const { resolveDeployment, resolveQueues } = await import('../../infra/local/deployment');
  const { createQueues } = await import('../../infra/local/queues');
  const { awsCallChecker } = await import('../../infra/local/aws-calls');
  const { startFunctionHost } = await import('../../infra/local/functions');
  const { startGateway } = await import('../../infra/local/gateway');
  const { startBackgroundJobs } = await import('../../infra/local/background');
  const { FALLBACK_FUNCTION } = await import('../../lib/routes');

  const prepared = await prepareStack(projectRoot, { reportEmailDomains: '*' });
  progress(`stack: functions ${prepared.summary}`);
  const endpoints = { dynamodb: env.DYNAMODB_ENDPOINT, s3: env.S3_ENDPOINT, ses: env.SES_ENDPOINT, sqs: env.SQS_ENDPOINT };
  const problems: string[] = [];
  let functions: FunctionHost | undefined;
  const gateway = await startGateway({
    tokens: { write: WRITE_TOKEN },
    loadHandler: async (route) => functions!.handler(route.name),
    scimAuthorizer: (event, context) => functions!.handler('scimAuthorizer')(event, context),
    fallbackFunction: (event, context) => functions!.handler(FALLBACK_FUNCTION.handler)(event, context),
  });
  // As npm start's: the local-only settings (a webhook may point at http on loopback), the template's queues.
  const local = {
    tableName: table,
    reportsBucket: env.REPORTS_BUCKET,
    apiUrl: gateway.url,
    sqsEndpoint: endpoints.sqs,
    localOnlySettings: true,
  };
  const deployed = resolveDeployment(prepared.deployment, local);
  await createQueues(endpoints.sqs, resolveQueues(prepared.deployment, local));
  const checker = awsCallChecker({
    functions: deployed,
    targets: endpoints,
    onDenied: (call) => problems.push(`refused by its role: ${call.handler}: ${call.action} on ${call.resource}`),
  });
  // Their log lines are not the bench's; a runtime error is kept for the rows' notes.
  const host = startFunctionHost({
    bundlesDir: prepared.bundlesDir,
    functions: deployed,
    endpointsFor: (fn) => checker.endpointsFor(fn),
    output: (handler, line) => /ERROR|Task timed out|Runtime\./.test(line) && problems.push(`${handler}: ${line.slice(0, 300)}`),
  });
  functions = host;
  const watched: FunctionHost = {
    ...host,
    invoke: (...args) => (options.onInvoke?.(...args), host.invoke(...args)),
  };
  const background =
    options.background === false
      ? undefined
      : startBackgroundJobs(watched, { onError: (name, error) => problems.push(`${name}: ${String(error)}`) });
  return {
    url: gateway.url,
    host,
    deployed,
    problems: () => [...problems],
    /** The errors so far, for a row's note (undefined when none). */
    problemNote: () => (problems.length ? `${problems.length} function errors: ${problems.slice(0, 3).join(' | ')}` : undefined),
    /** A call through the gateway with the write token (or `token`); a status not `expected` fails the bench. */
    async call(method: string, path: string, body?: unknown, { token = WRITE_TOKEN, expected = [200, 201, 204] } = {}) {
      const type = path.startsWith('/scim/') ? 'application/scim+json' : 'application/json';
      const response = await fetch(`${gateway.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!expected.includes(response.status)) {
        const errors = problems.length ? `; function errors: ${problems.slice(-3).join(' | ')}` : '';
        throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}${errors}`);
      }
      return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown>, answeredAt: Date.now() };
    },
    /** Every entry of a cursor-paged list (`key`: its entries' field), from `first`'s query on, until `enough`. */
    async walk<T>(path: string, first: string, key: string, enough: (items: T[]) => boolean = () => false) {
      const all: T[] = [];
      for (let query = first; ;) {
        const page = (await this.call('GET', `${path}?count=1000&${query}`)).body;
        const items = page[key] as T[];
        all.push(...items);
        if (items.length === 0 || !page.next_cursor || enough(all)) return all;
        query = `cursor=${encodeURIComponent(String(page.next_cursor))}`;
      }
    },
    async close() {
      await background?.stop();
      await gateway.close();
      await host.close();
      await checker.close();
    },
  };
}
