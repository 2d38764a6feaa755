/**
 * `npm start`: the whole service on one machine. Starts the local AWS
 * stand-ins (data kept under LOCAL_DATA_DIR), builds every function as the
 * stack does and synthesizes the stack (both cached by content:
 * prepare.ts), runs each function from its bundle with the template's
 * environment (functions.ts) and serves the API through the local gateway
 * until SIGINT/SIGTERM.
 *
 * Settings (all optional): PORT, ADMIN_API_TOKEN, ADMIN_API_READ_TOKEN (unset:
 * made once per data directory and kept in it, tokens.ts), LOCAL_DATA_DIR,
 * LOCAL_DYNAMODB_PORT, LOCAL_S3_PORT, LOCAL_SES_PORT, LOCAL_SQS_PORT, and the
 * stack's own DEPARTMENT_SEATS, REPORT_EMAIL_DOMAINS (default `*`) and
 * REPORT_EMAIL_FROM, which become the synth's context (departmentSeats,
 * reportEmailDomains, reportEmailFrom) as `cdk deploy -c` would take them, and
 * API_BASE_URL (default the local API's), where the report e-mail links to.
 */
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../lib/config';
import { FALLBACK_FUNCTION } from '../../lib/routes';
import { FUNCTION_RUNTIME } from '../bundling';
import { startBackgroundJobs, type BackgroundRunner } from './background';
import { resolveDeployment, resolveQueues, type StackContext } from './deployment';
import { createQueues } from './queues';
import { awsCallChecker } from './aws-calls';
import { startFunctionHost, type FunctionHost } from './functions';
import { startGateway, type Gateway } from './gateway';
import { prepareStack } from './prepare';
import { JavaUnavailableError, PATIENT_START_TIMEOUT_MS, startLocalServices, type LocalServices } from './services';
import { localDataDir, localTokens, TOKENS_FILE_NAME, TokensFileError, type LocalToken } from './tokens';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A mistake in the settings: reported as one line, without a stack. */
class SettingError extends Error {}

function portSetting(name: string, fallback?: number): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SettingError(`${name} must be a port number (0-65535), got "${raw}"`);
  return port;
}

function readSettings() {
  try {
    loadConfig(process.env); // fails fast on a bad DEPARTMENT_SEATS, before anything starts
  } catch (error) {
    throw new SettingError((error as Error).message);
  }
  const setting = (name: string) => process.env[name]?.trim() || undefined;
  // The stack's settings, as `cdk deploy -c` takes them (infra/context.ts); report e-mail goes anywhere by default here.
  const context: StackContext = { reportEmailDomains: setting('REPORT_EMAIL_DOMAINS') ?? '*' };
  if (setting('DEPARTMENT_SEATS') !== undefined) context.departmentSeats = setting('DEPARTMENT_SEATS')!;
  if (setting('REPORT_EMAIL_FROM') !== undefined) context.reportEmailFrom = setting('REPORT_EMAIL_FROM')!;
  const dataDir = localDataDir(process.env, projectRoot);
  return {
    context,
    apiBaseUrl: setting('API_BASE_URL'),
    port: portSetting('PORT', 3000)!,
    // Unset tokens are made once per data directory and kept there (tokens.ts).
    tokens: localTokens(dataDir, process.env),
    dataDir,
    servicePorts: {
      dynamodb: portSetting('LOCAL_DYNAMODB_PORT'),
      s3: portSetting('LOCAL_S3_PORT'),
      ses: portSetting('LOCAL_SES_PORT'),
      sqs: portSetting('LOCAL_SQS_PORT'),
    },
  };
}

/** The banner's word on where a token came from, so that a newcomer knows whether saved commands still work. */
function tokenNote(token: LocalToken, setting: string): string {
  switch (token.origin) {
    case 'environment':
      return `(${setting})`;
    case 'kept':
      return `(kept in the data dir's ${TOKENS_FILE_NAME}: the same as at the last start; ${setting} sets another)`;
    case 'new':
      return `(new: this data dir had none; kept in its ${TOKENS_FILE_NAME} for the next start; ${setting} sets another)`;
  }
}

/** The Node major version the Lambdas run (FUNCTION_RUNTIME, e.g. `nodejs22.x`). */
const LAMBDA_NODE = /^nodejs(\d+)\.x$/.exec(FUNCTION_RUNTIME.name)?.[1] ?? FUNCTION_RUNTIME.name;

/**
 * The banner's line about Node. Under an older Node than the Lambdas', the
 * AWS SDK prints a multi-line warning that its future versions need a newer
 * Node, which a newcomer takes for an error; it is left out only because this
 * line says it, once.
 */
function nodeLine(): string {
  const here = Number(process.versions.node.split('.')[0]);
  const lambdas = `the Lambdas run Node ${LAMBDA_NODE} (${FUNCTION_RUNTIME.name})`;
  if (!(here < Number(LAMBDA_NODE))) return `  Node          ${process.version} here; ${lambdas}`;
  return `  Node          ${process.version} here; ${lambdas}, which newer AWS SDK versions will require (their warning is not repeated)`;
}

async function main(): Promise<void> {
  const settings = readSettings();
  // Before any SDK client exists; the banner's Node line says what the warning would (nodeLine).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let services: LocalServices | undefined;
  let gateway: Gateway | undefined;
  let background: BackgroundRunner | undefined;
  let stopFunctions: (() => Promise<void>) | undefined;

  let shuttingDown = false;
  const shutDown = async (signal: NodeJS.Signals) => {
    // A second signal means "now": the 'exit' hook in services.ts still ends the children.
    if (shuttingDown) process.exit(1);
    shuttingDown = true;
    console.log(`\n${signal}: stopping...`);
    await background?.stop().catch(() => {});
    await gateway?.close().catch(() => {});
    await stopFunctions?.().catch(() => {});
    await services?.stop();
    process.exit(0);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    shutDown(signal).catch((error: unknown) => {
      console.error('dept-admin could not stop cleanly:', error);
      process.exit(1);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const servicesStarting = startLocalServices({
    dataDir: settings.dataDir,
    ports: settings.servicePorts,
    startTimeoutMs: PATIENT_START_TIMEOUT_MS,
  });
  servicesStarting.catch(() => {}); // awaited below, after the build
  const prepared = await prepareStack(projectRoot, settings.context);
  services = await servicesStarting;
  const deployedServices = services;

  let functions: FunctionHost | undefined;
  const localResources = (apiUrl: string) => ({
    tableName: deployedServices.env.TABLE_NAME,
    reportsBucket: deployedServices.env.REPORTS_BUCKET,
    apiUrl,
    sqsEndpoint: deployedServices.endpoints.sqs,
    // A webhook receiver on this machine (http, loopback): never on AWS.
    localOnlySettings: true,
  });
  const resolved = (apiUrl: string) => resolveDeployment(prepared.deployment, localResources(apiUrl));
  try {
    gateway = await startGateway({
      port: settings.port,
      tokens: { write: settings.tokens.write.value, read: settings.tokens.read.value },
      loadHandler: async (route) => functions!.handler(route.name),
      scimAuthorizer: (event, context) => functions!.handler('scimAuthorizer')(event, context),
      fallbackFunction: (event, context) => functions!.handler(FALLBACK_FUNCTION.handler)(event, context),
      accessLog: (line) => console.log(line),
    });
  } catch (error) {
    await services.stop();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SettingError(`port ${settings.port} is in use; set PORT to another one`);
    }
    throw error;
  }
  // Where the report e-mail's link points (the template's API URL); a proxy in front of this machine sets its own.
  const deployed = resolved(settings.apiBaseUrl ?? gateway.url);
  // The template's queues (the webhook delivery queue and its dead-letter queue), empty at each start.
  await createQueues(deployedServices.endpoints.sqs, resolveQueues(prepared.deployment, localResources(gateway.url)));
  // Each AWS call is checked against the function's role, as AWS would: a refused one fails there and is said here.
  const checker = awsCallChecker({
    functions: deployed,
    targets: deployedServices.endpoints,
    onDenied: (call) =>
      console.error(`[${call.handler}] AccessDenied: its role does not allow ${call.action} on ${call.resource} (${call.request})`),
  });
  functions = startFunctionHost({
    bundlesDir: prepared.bundlesDir,
    functions: deployed,
    endpointsFor: (fn) => checker.endpointsFor(fn),
    output: (handler, line) => console.log(`[${handler}] ${line}`),
  });
  stopFunctions = async () => {
    await functions!.close();
    await checker.close();
  };
  const host = functions;
  background = startBackgroundJobs(host, {
    onError: (name, error) => console.error(`${name} failed (retried on its next run):`, error instanceof Error ? error.message : error),
  });

  const startupMs = Math.round(performance.now());
  const { write, read } = settings.tokens;
  console.log(
    [
      `dept-admin is ready in ${startupMs} ms (functions: ${prepared.summary})`,
      // The token rides in the fragment: the browser never sends it to the server, and the console removes it from the address bar.
      `  console       ${gateway.url}/console#token=${encodeURIComponent(write.value)}   (open it: signed in with the write token)`,
      `  API           ${gateway.url}   (e.g. curl ${gateway.url}/v2/health)`,
      `  write token   ${write.value}   ${tokenNote(write, 'ADMIN_API_TOKEN')}`,
      `  read token    ${read.value}   ${tokenNote(read, 'ADMIN_API_READ_TOKEN')}`,
      `  SES inbox     ${services.sesInboxUrl}`,
      `  data dir      ${settings.dataDir}`,
      nodeLine(),
      'Ctrl+C stops everything.',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof JavaUnavailableError || error instanceof SettingError || error instanceof TokensFileError) {
    console.error(error.message);
  } else {
    console.error('dept-admin failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
