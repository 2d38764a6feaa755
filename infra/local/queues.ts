/**
 * SQS on one machine: the stand-in (local-aws-sqs, a maintained emulator
 * that speaks the JSON protocol of @aws-sdk/client-sqs and the query
 * protocol, with DelaySeconds, visibility timeouts and redrive to a
 * dead-letter queue after maxReceiveCount, as SQS does), the template's
 * queues created in it, and a local event source mapping.
 *
 * The mapping does what Lambda's does for a function with an SQS source
 * in the template (infra/local/deployment.ts `queueSources`): receives up to
 * the batch size, invokes the function with the SQS event, deletes what
 * succeeded and leaves the rest to come back after the visibility timeout
 * (the whole batch when the invocation fails, or only the
 * `batchItemFailures` with ReportBatchItemFailures); the stand-in moves a
 * message received `maxReceiveCount` times to the dead-letter queue. It
 * polls with the function's own role, through the function's endpoints (the
 * call checker), as Lambda polls with the function's execution role.
 *
 * The stand-in keeps its messages in memory: `npm start` begins with empty
 * queues.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createSqsServer } from 'local-aws-sqs';
import { LOCAL_ACCOUNT, LOCAL_REGION, type LocalFunction, type LocalQueue, type LocalQueueSource } from './deployment';

/** The stand-in checks no signature (services.ts's pair is for s3rver, which does). */
const QUEUE_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export interface QueueService {
  endpoint: string;
  close(): Promise<void>;
}

/** The SQS stand-in on 127.0.0.1, in this process, with queue URLs and ARNs of the local account. */
export async function startQueueService({
  port = 0,
  region = LOCAL_REGION,
}: { port?: number; region?: string } = {}): Promise<QueueService> {
  const server: Server = await createSqsServer({
    port,
    hostname: '127.0.0.1',
    accountId: LOCAL_ACCOUNT,
    region,
    // Each test file makes queues of its own and none is deleted and made again: no 60-second wait to emulate.
    emulateQueueCreationLifecycle: false,
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const sqsClient = (endpoint: string, region = LOCAL_REGION) =>
  new SQSClient({ endpoint, region, credentials: QUEUE_CREDENTIALS, maxAttempts: 1 });

/** Creates the template's queues (dead-letter queues first: a redrive policy names an existing queue). Idempotent. */
export async function createQueues(endpoint: string, queues: readonly LocalQueue[]): Promise<void> {
  const client = sqsClient(endpoint);
  try {
    const ordered = [...queues].sort((a, b) => Number('RedrivePolicy' in a.attributes) - Number('RedrivePolicy' in b.attributes));
    for (const queue of ordered) await client.send(new CreateQueueCommand({ QueueName: queue.name, Attributes: queue.attributes }));
  } finally {
    client.destroy();
  }
}

/**
 * What the mapping needs of the function host (functions.ts's FunctionHost has it): invoke, and the function's
 * current deployment and SQS endpoint. Written out rather than imported: functions.ts imports services.ts, which
 * starts the queues here.
 */
export interface MappingHost {
  invoke(handler: string, event: unknown): Promise<unknown>;
  deployed(handler: string): { fn: LocalFunction; endpoints: () => Promise<{ sqs: string }> };
}

export interface QueueMappingOptions {
  onError: (error: unknown) => void;
  /** How long a poller waits after a receive that found nothing (default 200 ms; the stand-in holds an empty one ~50 ms). */
  idleMs?: number;
  /**
   * Pollers, each one batch at a time (Lambda scales its own): default the mapping's MaximumConcurrency, at most 2, so
   * two slow endpoints are waited on at once, at about 8 idle receives a second per test file.
   */
  pollers?: number;
}

export interface QueueMapping {
  stop(): Promise<void>;
}

/** The SQS event Lambda builds from received messages. */
export function sqsEvent(messages: readonly Message[], source: Pick<LocalQueueSource, 'queueArn'>, region = LOCAL_REGION): SQSEvent {
  return {
    Records: messages.map((message): SQSRecord => ({
      messageId: message.MessageId!,
      receiptHandle: message.ReceiptHandle!,
      body: message.Body ?? '',
      attributes: {
        ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
        SentTimestamp: message.Attributes?.SentTimestamp ?? '',
        SenderId: message.Attributes?.SenderId ?? LOCAL_ACCOUNT,
        ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? '',
      },
      messageAttributes: {},
      md5OfBody: message.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: source.queueArn,
      awsRegion: region,
    })),
  };
}

/**
 * The messages of a batch that stay on the queue after an invocation's answer: none on success, the reported ones
 * with ReportBatchItemFailures, all when the answer names a message not in the batch (Lambda then fails the batch).
 */
export function failedMessages(messages: readonly Message[], answer: unknown, reportBatchItemFailures: boolean): Set<string> {
  if (!reportBatchItemFailures) return new Set();
  const failures = (answer as { batchItemFailures?: unknown } | null | undefined)?.batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  const ids = new Set(messages.map((message) => message.MessageId!));
  const all = new Set(ids);
  if (!Array.isArray(failures)) return all;
  const reported = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !ids.has(id)) return all;
    reported.add(id);
  }
  return reported;
}

/**
 * Runs a function's queue sources as Lambda's event source mapping does, until stopped. Each poll looks up the
 * function's current deployment, so a redeploy (another table, so other queues) moves the mapping with it.
 */
export function startQueueMapping(host: MappingHost, handler: string, options: QueueMappingOptions): QueueMapping {
  const idleMs = options.idleMs ?? 200;
  const abort = new AbortController();
  const clients = new Map<string, SQSClient>();
  let stopped = false;
  const clientFor = (endpoint: string) => {
    let client = clients.get(endpoint);
    if (!client) clients.set(endpoint, (client = sqsClient(endpoint)));
    return client;
  };
  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

  /** One receive and its invocation; whether it found messages. */
  const pollOnce = async (fn: LocalFunction, client: SQSClient, source: LocalQueueSource): Promise<boolean> => {
    const { Messages: messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: source.queueUrl,
        MaxNumberOfMessages: Math.min(source.batchSize, 10),
        // Short polls: local-aws-sqs 2.0.2 answers a long poll (WaitTimeSeconds > 0) that finds messages with each of
        // them twice, counted as two receives.
        WaitTimeSeconds: 0,
        // The stand-in reads the older name of the parameter; SQS takes both.
        AttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    if (messages.length === 0) return false;
    let failed: Set<string>;
    try {
      const answer = await host.invoke(fn.handler, sqsEvent(messages, source));
      failed = failedMessages(messages, answer, source.reportBatchItemFailures);
    } catch (error) {
      // A failed invocation (an error, a timeout): the whole batch comes back after its visibility timeout.
      options.onError(error);
      return true;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length === 0) return true;
    await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: source.queueUrl,
        Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
    return true;
  };

  const poller = async () => {
    const checked = new Set<string>();
    while (!stopped) {
      const { fn, endpoints } = host.deployed(handler);
      const sources = fn.queueSources ?? [];
      try {
        const client = clientFor((await endpoints()).sqs);
        let found = false;
        for (const source of sources) {
          // Lambda reads the queue's attributes when the mapping is made (and fails on a queue it may not read).
          if (!checked.has(source.queueArn)) {
            await client.send(new GetQueueAttributesCommand({ QueueUrl: source.queueUrl, AttributeNames: ['VisibilityTimeout'] }));
            checked.add(source.queueArn);
          }
          if (await pollOnce(fn, client, source)) found = true;
        }
        if (!found) await pause(idleMs);
      } catch (error) {
        if (stopped) return;
        options.onError(error);
        await pause(1000);
      }
    }
  };

  const first = host.deployed(handler).fn.queueSources?.[0];
  const count = options.pollers ?? Math.min(first?.maxConcurrency ?? 1, 2);
  const running = Array.from({ length: Math.max(count, 1) }, () => poller());
  return {
    async stop() {
      stopped = true;
      abort.abort();
      await Promise.all(running);
      for (const client of clients.values()) client.destroy();
    },
  };
}
