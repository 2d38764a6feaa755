/**
 * Each function of the stack bundled exactly as the stack bundles it (infra/build.ts with infra/bundling.ts's options),
 * next to its floor: a trivial handler bundled the same way that makes each AWS client the function uses and sends one
 * command through it. test/infra/bundle-size.test.ts holds the bytes to their goal; the bench's cold start times the
 * imports of both (which clients and why: docs/performance.md "Cold start").
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFunctions, bundleFunctions } from '../../../infra/build';
import { ACCESS_TOKEN_TRIGGER } from '../../../lib/auth/group-scopes';
import { backgroundFunctions, isQueueTriggered, isStreamReader } from '../../../lib/background';
import { FALLBACK_FUNCTION, routes } from '../../../lib/routes';
import { round } from './util';

/**
 * The AWS clients a function uses; `s3`: the S3 client alone (a function that neither presigns nor uploads);
 * `metrics`: it writes business metrics with Powertools Metrics (lib/metrics.ts), as every pipeline that records them does.
 */
export type ClientSet = Record<'dynamodb' | 'presign' | 'upload' | 'ses', boolean> & {
  s3?: boolean;
  sqs?: boolean;
  /** EventBridge and Lambda: the StreamRouter publishes change events and invokes workers. */
  events?: boolean;
  lambda?: boolean;
  metrics?: boolean;
};

/** Bytes ≤ `bytes`× the floor's; `noClientBytes`: what a function with no AWS client may add to its (empty) floor. */
export const BYTES_GOALS = { bytes: 1.335, noClientBytes: 4096 };

type FunctionEntry = ReturnType<typeof entry>;

const NO_CLIENT: ClientSet = {
  dynamodb: false,
  s3: false,
  presign: false,
  upload: false,
  ses: false,
  sqs: false,
  events: false,
  lambda: false,
};
const uses = (clients: Partial<ClientSet>): ClientSet => ({ ...NO_CLIENT, ...clients });

/** Does a functions/ module export a handler (a Lambda entry point, not a helper)? */
const exportsHandler = (source: string) =>
  /\bexport\s+(?:const|let|async\s+function|function)\s+handler\b|\bexport\s*\{[^}]*\bhandler\b/.test(source);

/**
 * A function of the stack; `declared`: the clients its table entry says it uses (none for a module in neither table).
 * `--functions=` selects it by its name, its handler's or its contract label.
 */
const entry = (
  name: string,
  handler: string,
  kind: 'route' | 'background' | 'trigger' | 'module',
  declared?: ClientSet,
  label?: string,
) => ({
  ...{ name, handler, kind, declared },
  named: (wanted: string) => wanted === name || wanted === handler || wanted === label,
});

/** Every function of the stack, with the clients its table entry says it uses; then any other functions/ module with a handler. */
export function stackFunctions(projectRoot: string): FunctionEntry[] {
  const entries: FunctionEntry[] = [
    ...routes.map((route) => {
      const clients = uses({
        dynamodb: route.access !== 'public',
        presign: route.reportsBucket === 'presign',
        sqs: route.webhookQueue === 'send',
      });
      return entry(route.name, route.name, 'route', clients, route.label);
    }),
    // The `$default` route's function: no client, so its floor is the empty handler.
    entry(FALLBACK_FUNCTION.name, FALLBACK_FUNCTION.handler, 'route', uses({})),
    // A queue-triggered function sends to its queue too (retries).
    ...backgroundFunctions.map((fn) => {
      const clients = uses({
        dynamodb: true,
        upload: fn.reportsBucket === 'write',
        ses: Boolean(fn.sendsEmail),
        sqs: isQueueTriggered(fn),
        events: isStreamReader(fn),
        lambda: isStreamReader(fn),
      });
      return entry(fn.name, fn.handler, 'background', clients);
    }),
    // The Cognito pool's trigger: it reads the event and calls nothing, so its floor is the empty handler, and an
    // AWS client that ever crept into its bundle would put it over its goal rather than raise its floor.
    entry(ACCESS_TOKEN_TRIGGER.name, ACCESS_TOKEN_TRIGGER.handler, 'trigger', uses({})),
  ];
  const known = new Set(entries.map(({ handler }) => handler));
  const dir = join(projectRoot, 'functions');
  for (const handler of readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((file) => file.slice(0, -3))) {
    if (!known.has(handler) && exportsHandler(readFileSync(join(dir, `${handler}.ts`), 'utf8')))
      entries.push(entry(handler, handler, 'module'));
  }
  return entries;
}

export function baselineName({ dynamodb, s3, presign, upload, ses, sqs, events, lambda, metrics }: ClientSet): string {
  const names = [
    ...[dynamodb && 'ddb', s3 && !presign && !upload && 's3', presign && 's3+presign', upload && 's3+upload', ses && 'ses', sqs && 'sqs'],
    ...[events && 'events', lambda && 'lambda'],
    metrics && 'metrics',
  ];
  return names.filter(Boolean).join('+') || 'none';
}

/** The packages that make each client, as esbuild's metafile names them. */
const CLIENT_PACKAGES: Record<Exclude<keyof ClientSet, 'metrics'>, string> = {
  ...{ dynamodb: '@aws-sdk/client-dynamodb', s3: '@aws-sdk/client-s3', presign: '@aws-sdk/s3-request-presigner' },
  ...{ upload: '@aws-sdk/lib-storage', ses: '@aws-sdk/client-ses', sqs: '@aws-sdk/client-sqs' },
  ...{ events: '@aws-sdk/client-eventbridge', lambda: '@aws-sdk/client-lambda' },
};
const CLIENT_KEYS = Object.keys(CLIENT_PACKAGES) as Array<keyof typeof CLIENT_PACKAGES>;
/** The library every pipeline that records business metrics carries (lib/metrics.ts). */
const METRICS_PACKAGE = '@aws-lambda-powertools/metrics';

/** The clients a bundle holds: their package's code is in it (more than a few bytes left by tree-shaking). */
function bundledClients(packages: Map<string, number>): ClientSet {
  const held = (name: string) => (packages.get(name) ?? 0) > 1024;
  return uses({ ...Object.fromEntries(CLIENT_KEYS.map((key) => [key, held(CLIENT_PACKAGES[key])])), metrics: held(METRICS_PACKAGE) });
}

const hasAnyClient = (clients: ClientSet) => CLIENT_KEYS.some((key) => clients[key]);

/**
 * The floor's clients: those declared that the bundle holds (a module in neither table: those it holds), and a note
 * when they differ; with Powertools Metrics when the bundle holds it (no table declares it: it comes with the pipeline).
 */
export function floorClients(declared: ClientSet | undefined, bundled: ClientSet): { clients: ClientSet; note?: string } {
  if (!declared) return { clients: bundled, note: `in neither table: floor from the clients its bundle holds (${baselineName(bundled)})` };
  const clients = uses({
    ...Object.fromEntries(CLIENT_KEYS.map((key) => [key, Boolean(declared[key]) && bundled[key]])),
    metrics: bundled.metrics,
  });
  // S3 made by the presigner or the upload floor already.
  const extra = CLIENT_KEYS.filter((key) => bundled[key] && !declared[key] && !(key === 's3' && (declared.presign || declared.upload)));
  const missing = CLIENT_KEYS.filter((key) => declared[key] && !bundled[key]);
  const notes = [
    missing.length > 0 && `the table declares ${missing.join(', ')}, which its bundle does not hold`,
    extra.length > 0 &&
      `its bundle holds ${extra.map((key) => CLIENT_PACKAGES[key]).join(', ')}, which the table does not declare (not in the floor)`,
  ].filter(Boolean);
  return { clients, note: notes.length > 0 ? notes.join('; ') : undefined };
}

/**
 * The floor's source: a handler that makes each client on first use (as the service does) and sends one command
 * through it; with `metrics`, that loads Powertools Metrics on first use (as lib/metrics.ts does) and writes one metric.
 */
export function baselineSource({ dynamodb, s3, presign, upload, ses, sqs, events, lambda, metrics }: ClientSet): string {
  const s3Commands = [presign && 'GetObjectCommand', s3 && !presign && !upload && 'HeadObjectCommand'].filter(Boolean);
  const bucket = "{ Bucket: process.env.BUCKET, Key: 'x'";
  const parts: Array<[boolean | undefined, string[], string[]]> = [
    [metrics, [], [`const { Metrics } = await import('${METRICS_PACKAGE}');`, "const metrics = new Metrics({ namespace: 'Floor', serviceName: 'floor' });", "metrics.addMetric('floor', 'Count', 1);", 'metrics.publishStoredMetrics();']], // prettier-ignore
    [dynamodb, ["import { DynamoDBClient } from '@aws-sdk/client-dynamodb';", "import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';"], ['const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));', "out.push((await db.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: 'x', sk: 'x' } }))).Item);"]], // prettier-ignore
    [s3 || presign || upload, [`import { S3Client${s3Commands.map((c) => `, ${c}`).join('')} } from '@aws-sdk/client-s3';`], ['const s3 = new S3Client({});', ...(s3Commands.includes('HeadObjectCommand') ? [`out.push(await s3.send(new HeadObjectCommand(${bucket} })));`] : [])]], // prettier-ignore
    [
      presign,
      ["import { getSignedUrl } from '@aws-sdk/s3-request-presigner';"],
      [`out.push(await getSignedUrl(s3, new GetObjectCommand(${bucket} }), { expiresIn: 60 }));`],
    ],
    [
      upload,
      ["import { Upload } from '@aws-sdk/lib-storage';"],
      [`out.push(await new Upload({ client: s3, params: ${bucket}, Body: 'x' } }).done());`],
    ],
    [ses, ["import { SESClient, SendRawEmailCommand } from '@aws-sdk/client-ses';"], ["out.push(await new SESClient({}).send(new SendRawEmailCommand({ RawMessage: { Data: new TextEncoder().encode('x') } })));"]], // prettier-ignore
    [sqs, ["import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';"], ["out.push(await new SQSClient({}).send(new SendMessageBatchCommand({ QueueUrl: process.env.QUEUE_URL, Entries: [{ Id: '1', MessageBody: 'x' }] })));"]], // prettier-ignore
    [events, ["import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';"], ["out.push(await new EventBridgeClient({}).send(new PutEventsCommand({ Entries: [{ Source: 'x', DetailType: 'x', Detail: '{}' }] })));"]], // prettier-ignore
    [lambda, ["import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';"], ["out.push(await new LambdaClient({}).send(new InvokeCommand({ FunctionName: 'x', InvocationType: 'Event' })));"]], // prettier-ignore
  ];
  const used = parts.filter(([wanted]) => wanted);
  const calls = used.flatMap(([, , lines]) => lines).map((line) => `  ${line}`);
  const [start, end] = [
    'export const handler = async () => {\n  const out = [];',
    '  return { statusCode: 200, body: JSON.stringify(out.length) };\n};\n',
  ];
  return [...used.flatMap(([, imports]) => imports), start, ...calls, end].join('\n');
}

/** Packages with more output bytes than in the floor, largest difference first. */
function overFloor(own: Map<string, number>, floor: Map<string, number>): Array<{ package: string; kb: number }> {
  return [...own]
    .map(([name, bytes]) => ({ package: name, bytes: bytes - (floor.get(name) ?? 0) }))
    .filter((entry) => entry.bytes >= 512)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8)
    .map((entry) => ({ package: entry.package, kb: round(entry.bytes / 1024, 1) }));
}

/** A function's bundle next to its floor's, and the bytes goal. */
export type BundledFunction = Awaited<ReturnType<typeof bundleStack>>[number];

/** Bundles every function of the stack (or those named in `only`) and their floors into `outDir`; each function's bytes against its floor's. */
export async function bundleStack(projectRoot: string, outDir: string, only?: string[]) {
  const functions = stackFunctions(projectRoot).filter((fn) => !only || only.some((name) => fn.named(name)));
  if (functions.length === 0) throw new Error(`no function is named ${only?.join(', ')}`);
  const handlers = functions.map((fn) => fn.handler);
  const bundles = await buildFunctions(projectRoot, join(outDir, 'out'), handlers);
  // Each function's floor: the clients its table declares that its bundle holds.
  const floors = new Map(functions.map((fn) => [fn.handler, floorClients(fn.declared, bundledClients(bundles.get(fn.handler)!.packages))]));
  const baselines = new Map<string, ClientSet>();
  for (const { clients } of floors.values()) baselines.set(baselineName(clients), clients);
  const baselineDir = join(outDir, 'baselines');
  mkdirSync(baselineDir, { recursive: true });
  const entries: Record<string, string> = {};
  for (const [name, clients] of baselines) {
    const file = join(baselineDir, `${name}.mjs`);
    writeFileSync(file, baselineSource(clients));
    entries[`baseline-${name}`] = file;
  }
  for (const [name, bundle] of await bundleFunctions(projectRoot, join(outDir, 'out'), entries)) bundles.set(name, bundle);
  return functions.map((fn) => {
    const own = bundles.get(fn.handler)!;
    const { clients, note } = floors.get(fn.handler)!;
    const baseline = baselineName(clients);
    const floor = bundles.get(`baseline-${baseline}`)!;
    const noClient = !hasAnyClient(clients);
    return {
      fn,
      ...{ file: own.file, bytes: own.bytes, map_bytes: own.mapBytes },
      ...{ baseline, baseline_file: floor.file, baseline_bytes: floor.bytes },
      bytes_goal: noClient ? `floor+${BYTES_GOALS.noClientBytes / 1024}KB` : `${BYTES_GOALS.bytes}×`,
      bytes_limit: noClient ? floor.bytes + BYTES_GOALS.noClientBytes : Math.floor(floor.bytes * BYTES_GOALS.bytes),
      clients_note: note,
      over_floor_kb: overFloor(own.packages, floor.packages),
      no_client: noClient,
    };
  });
}
