/**
 * X-Ray subsegments for the AWS SDK calls, written with the SDK's own
 * middleware stack rather than the X-Ray SDK (Powertools Tracer's
 * `captureAWSv3Client` pulls in aws-xray-sdk-core: +113–127 KB and ~14% more
 * import time in every function; docs/performance.md "Tracing").
 *
 * Lambda's active tracing records each invocation's segment; this adds one
 * subsegment per SDK call (all its retries), as the X-Ray SDK does: named
 * after the service, namespace `aws`, with the operation, region, request id,
 * retries, table and HTTP status, and the error, fault or throttle flag. The
 * SDK's own recursion-detection middleware has already put the invocation's
 * trace header on the request (from `_X_AMZN_TRACE_ID` or the invoke store);
 * this reads it there, makes the subsegment the downstream call's parent, and
 * sends the subsegment to the X-Ray daemon Lambda runs beside the function
 * (AWS_XRAY_DAEMON_ADDRESS). Without a sampled trace header (tracing off,
 * the local stack, the tests) it does nothing.
 */
import type { Socket } from 'node:dgram';

/** The part of an SDK v3 client this needs: its region and middleware stack (typed per client, hence `any`). */
interface TraceableClient {
  config: { region: string | (() => Promise<string>) };
  middlewareStack: { addRelativeTo(middleware: any, options: { name: string; relation: 'after'; toMiddleware: string }): void };
}
type Handler = (args: { input: Record<string, unknown>; request: unknown }) => Promise<{ output: { $metadata?: Metadata } }>;
interface Metadata {
  httpStatusCode?: number;
  requestId?: string;
  attempts?: number;
}

const TRACE_HEADER = 'X-Amzn-Trace-Id';
const DAEMON_HEADER = '{"format":"json","version":1}\n';

/** The daemon's UDP address: `host:port`, or `tcp:host:port udp:host:port` (either order). */
export function daemonAddress(raw: string | undefined): { host: string; port: number } | undefined {
  const udp =
    raw
      ?.split(/\s+/)
      .find((part) => part.startsWith('udp:'))
      ?.slice(4) ?? raw?.trim();
  const match = udp?.match(/^(.+):(\d+)$/);
  return match ? { host: match[1], port: Number(match[2]) } : undefined;
}

const newId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex');

let socket: Promise<Socket> | undefined;

/** Sends one subsegment; resolves once it is handed to the network (before the function may be frozen), never rejects. */
async function send(document: Record<string, unknown>): Promise<void> {
  const address = daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS);
  if (!address) return;
  socket ??= import('node:dgram').then(({ createSocket }) => createSocket('udp4').unref());
  const udp = await socket;
  await new Promise<void>((resolve) => udp.send(DAEMON_HEADER + JSON.stringify(document), address.port, address.host, () => resolve()));
}

/** X-Ray's flags: throttle (with error), fault for a 5xx or no answer at all, error for a 4xx. */
function flags(status: number | undefined, failure: unknown): Record<string, true> {
  const name = (failure as { name?: string } | undefined)?.name ?? '';
  if (status === 429 || /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(name)) return { throttle: true, error: true };
  if (status !== undefined && status >= 500) return { fault: true };
  if (status !== undefined && status >= 400) return { error: true };
  return failure ? { fault: true } : {};
}

/** Adds the subsegment middleware to `client` (once; before it is wrapped, e.g. by the DynamoDB document client) and returns it. */
export function traced<C extends TraceableClient>(client: C): C {
  const subsegments =
    (next: Handler, context: { clientName?: string; commandName?: string }): Handler =>
    async (args) => {
      const headers = (args.request as { headers?: Record<string, string> }).headers;
      const fields = Object.fromEntries((headers?.[TRACE_HEADER] ?? '').split(';').map((field) => field.split('=')));
      if (fields.Sampled !== '1' || !fields.Root || !fields.Parent) return next(args);
      const id = newId();
      headers![TRACE_HEADER] = headers![TRACE_HEADER].replace(`Parent=${fields.Parent}`, `Parent=${id}`);
      const start = Date.now() / 1000;
      let metadata: Metadata | undefined;
      let failure: unknown;
      try {
        const result = await next(args);
        metadata = result.output.$metadata;
        return result;
      } catch (error) {
        failure = error;
        metadata = (error as { $metadata?: Metadata }).$metadata;
        throw error;
      } finally {
        const region = client.config.region;
        const status = metadata?.httpStatusCode;
        await send({
          name: context.clientName?.replace(/Client$/, '') ?? 'AWS',
          id,
          trace_id: fields.Root,
          parent_id: fields.Parent,
          type: 'subsegment',
          namespace: 'aws',
          start_time: start,
          end_time: Date.now() / 1000,
          aws: {
            operation: context.commandName?.replace(/Command$/, ''),
            region: typeof region === 'string' ? region : await region().catch(() => undefined),
            request_id: metadata?.requestId,
            retries: Math.max(0, (metadata?.attempts ?? 1) - 1),
            ...(typeof args.input.TableName === 'string' ? { table_name: args.input.TableName } : {}),
          },
          ...(status === undefined ? {} : { http: { response: { status } } }),
          ...flags(status, failure),
          ...(failure
            ? { cause: { exceptions: [{ id: newId(), type: (failure as Error).name, message: (failure as Error).message, remote: true }] } }
            : {}),
        });
      }
    };
  // After the SDK's recursion detection, which puts the invocation's trace header on the request.
  client.middlewareStack.addRelativeTo(subsegments, {
    name: 'xraySubsegment',
    relation: 'after',
    toMiddleware: 'recursionDetectionMiddleware',
  });
  return client;
}
