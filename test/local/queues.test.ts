/**
 * The local SQS: the stand-in (local-aws-sqs) with the template's kind of queues, and the local event source
 * mapping that invokes a function from a queue as Lambda does. Queues here have a visibility timeout of 1 s and
 * delays of 1 s (SQS's units are whole seconds), so the file runs in a few seconds.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsCallChecker, describeRequest } from '../../infra/local/aws-calls';
import { LOCAL_ACCOUNT, LOCAL_REGION, type LocalFunction, type LocalQueueSource } from '../../infra/local/deployment';
import { evaluateCall } from '../../infra/local/iam';
import { failedMessages, startQueueMapping, startQueueService, type MappingHost, type QueueService } from '../../infra/local/queues';

let service: QueueService;
let client: SQSClient;

beforeAll(async () => {
  service = await startQueueService();
  client = new SQSClient({ endpoint: service.endpoint, region: LOCAL_REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
});
afterAll(async () => {
  client.destroy();
  await service.close();
});

/** A queue with a visibility timeout of 1 s and a dead-letter queue after `maxReceiveCount` receives. */
async function queuePair(maxReceiveCount = 3): Promise<{ source: LocalQueueSource; deadLetterUrl: string }> {
  const name = `q-${randomUUID().slice(0, 8)}`;
  const { QueueUrl: deadLetterUrl } = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const deadLetterArn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}-dlq`;
  const { QueueUrl: queueUrl } = await client.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { VisibilityTimeout: '1', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetterArn, maxReceiveCount }) },
    }),
  );
  return {
    source: {
      queueUrl: queueUrl!,
      queueArn: `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}`,
      batchSize: 10,
      reportBatchItemFailures: true,
    },
    deadLetterUrl: deadLetterUrl!,
  };
}

interface Delivery {
  at: number;
  body: string;
  messageId: string;
  receiveCount: number;
}

/**
 * A host whose one function is `answer`, invoked with what the mapping hands it; every record is kept with when
 * it arrived. The mapping polls the stand-in directly (no call checker).
 */
function fakeHost(source: LocalQueueSource, answer: (event: SQSEvent) => unknown) {
  const deliveries: Delivery[] = [];
  const events: SQSEvent[] = [];
  const fn: LocalFunction = {
    handler: 'consumer',
    logicalId: 'ConsumerFunction',
    roleLogicalId: 'ConsumerRole',
    environment: {},
    statements: [],
    managedPolicyArns: [],
    timeoutSeconds: 10,
    memoryMb: 128,
    queueSources: [source],
  };
  const host: MappingHost = {
    deployed: () => ({ fn, endpoints: async () => ({ dynamodb: '', s3: '', ses: '', sqs: service.endpoint }) }),
    invoke: async (_handler, event) => {
      const sqs = event as SQSEvent;
      events.push(sqs);
      for (const record of sqs.Records)
        deliveries.push({
          at: Date.now(),
          body: record.body,
          messageId: record.messageId,
          receiveCount: Number(record.attributes.ApproximateReceiveCount),
        });
      return answer(sqs);
    },
  };
  return { host, deliveries, events };
}

const waitFor = async (condition: () => boolean, timeoutMs = 8000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const visibleIn = async (queueUrl: string) => {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible);
};

describe('the local event source mapping', () => {
  it('hands a message to the function only once its DelaySeconds have passed, as an SQS event of the queue', async () => {
    const { source } = await queuePair();
    const { host, deliveries, events } = fakeHost(source, () => ({ batchItemFailures: [] }));
    const mapping = startQueueMapping(host, 'consumer', { onError: (error) => expect.fail(String(error)) });
    try {
      const sent = Date.now();
      await client.send(new SendMessageCommand({ QueueUrl: source.queueUrl, MessageBody: '{"kind":"attempt"}', DelaySeconds: 1 }));
      await waitFor(() => deliveries.length === 1);
      expect(deliveries[0].at - sent).toBeGreaterThanOrEqual(900);
      expect(events[0].Records[0]).toMatchObject({
        body: '{"kind":"attempt"}',
        eventSource: 'aws:sqs',
        eventSourceARN: source.queueArn,
        awsRegion: LOCAL_REGION,
        attributes: { ApproximateReceiveCount: '1' },
      });
      // Deleted once handled: nothing comes back.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(deliveries).toHaveLength(1);
      expect(await visibleIn(source.queueUrl)).toBe(0);
    } finally {
      await mapping.stop();
    }
  });

  it('deletes what succeeded and hands a reported failure back after the visibility timeout, alone', async () => {
    const { source } = await queuePair();
    const { host, deliveries } = fakeHost(source, (event) => ({
      batchItemFailures: event.Records.filter((record) => record.body === 'flaky' && record.attributes.ApproximateReceiveCount === '1').map(
        (record) => ({ itemIdentifier: record.messageId }),
      ),
    }));
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: source.queueUrl,
        Entries: [
          { Id: '1', MessageBody: 'flaky' },
          { Id: '2', MessageBody: 'fine' },
        ],
      }),
    );
    const mapping = startQueueMapping(host, 'consumer', { onError: (error) => expect.fail(String(error)) });
    try {
      await waitFor(() => deliveries.filter((delivery) => delivery.body === 'flaky').length === 2);
      const [first, second] = deliveries.filter((delivery) => delivery.body === 'flaky');
      expect(second.messageId).toBe(first.messageId);
      expect(second.receiveCount).toBe(2);
      expect(second.at - first.at).toBeGreaterThanOrEqual(900);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(deliveries.filter((delivery) => delivery.body === 'fine')).toHaveLength(1);
      expect(deliveries.filter((delivery) => delivery.body === 'flaky')).toHaveLength(2);
      expect(await visibleIn(source.queueUrl)).toBe(0);
    } finally {
      await mapping.stop();
    }
  });

  it('hands the whole batch back when the invocation fails', async () => {
    const { source } = await queuePair();
    let calls = 0;
    const { host, deliveries } = fakeHost(source, () => {
      calls++;
      if (calls === 1) throw new Error('the function crashed');
      return { batchItemFailures: [] };
    });
    const errors: unknown[] = [];
    await client.send(new SendMessageCommand({ QueueUrl: source.queueUrl, MessageBody: 'once' }));
    const mapping = startQueueMapping(host, 'consumer', { onError: (error) => errors.push(error) });
    try {
      await waitFor(() => deliveries.length === 2);
      expect(deliveries.map((delivery) => delivery.receiveCount)).toEqual([1, 2]);
      expect(String(errors[0])).toMatch(/crashed/);
    } finally {
      await mapping.stop();
    }
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives, and hands it over no more', async () => {
    const { source, deadLetterUrl } = await queuePair(2);
    const { host, deliveries } = fakeHost(source, (event) => ({
      batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })),
    }));
    await client.send(new SendMessageCommand({ QueueUrl: source.queueUrl, MessageBody: 'poison' }));
    const mapping = startQueueMapping(host, 'consumer', { onError: (error) => expect.fail(String(error)) });
    try {
      await waitFor(() => deliveries.length === 2);
      await waitFor(() => false, 1500).catch(() => {});
      expect(deliveries.map((delivery) => delivery.receiveCount)).toEqual([1, 2]);
      const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: deadLetterUrl, WaitTimeSeconds: 1 }));
      expect(Messages.map((message) => message.Body)).toEqual(['poison']);
    } finally {
      await mapping.stop();
    }
  });
});

describe('batch item failures, as Lambda reads them', () => {
  const messages = [{ MessageId: 'a' }, { MessageId: 'b' }];
  it('keeps only the reported messages with ReportBatchItemFailures, none without it or with an empty list', () => {
    expect([...failedMessages(messages, { batchItemFailures: [{ itemIdentifier: 'b' }] }, true)]).toEqual(['b']);
    expect([...failedMessages(messages, { batchItemFailures: [] }, true)]).toEqual([]);
    expect([...failedMessages(messages, null, true)]).toEqual([]);
    expect([...failedMessages(messages, { batchItemFailures: [{ itemIdentifier: 'b' }] }, false)]).toEqual([]);
  });
  it('fails the whole batch on an identifier not in it, or an answer that is not a list', () => {
    expect([...failedMessages(messages, { batchItemFailures: [{ itemIdentifier: 'z' }] }, true)].sort()).toEqual(['a', 'b']);
    expect([...failedMessages(messages, { batchItemFailures: [{}] }, true)].sort()).toEqual(['a', 'b']);
    expect([...failedMessages(messages, { batchItemFailures: 'b' }, true)].sort()).toEqual(['a', 'b']);
  });
});

describe('SQS calls against a role', () => {
  const queueUrl = `http://127.0.0.1:1/${LOCAL_ACCOUNT}/deliveries`;
  const queueArn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:deliveries`;
  const request = (operation: string, body: object) =>
    describeRequest({
      service: 'sqs',
      region: LOCAL_REGION,
      method: 'POST',
      url: new URL('http://127.0.0.1:1/'),
      headers: { 'x-amz-target': `AmazonSQS.${operation}` },
      body: Buffer.from(JSON.stringify(body)),
    });

  it('names the queue by the ARN of its URL, and a batch by its single action', () => {
    expect(request('SendMessageBatch', { QueueUrl: queueUrl, Entries: [] })).toEqual([
      { service: 'sqs', action: 'sqs:SendMessage', resource: queueArn, context: {} },
    ]);
    expect(request('DeleteMessageBatch', { QueueUrl: queueUrl, Entries: [] })[0].action).toBe('sqs:DeleteMessage');
    expect(request('GetQueueUrl', { QueueName: 'deliveries' })[0]).toMatchObject({ action: 'sqs:GetQueueUrl', resource: queueArn });
  });

  it('lets a role that may send to one queue send there and nowhere else, and not receive', async () => {
    const statements = [{ Effect: 'Allow' as const, Action: 'sqs:SendMessage', Resource: queueArn }];
    const [send] = request('SendMessage', { QueueUrl: queueUrl, MessageBody: 'x' });
    const [elsewhere] = request('SendMessage', { QueueUrl: `http://127.0.0.1:1/${LOCAL_ACCOUNT}/other`, MessageBody: 'x' });
    const [receive] = request('ReceiveMessage', { QueueUrl: queueUrl });
    expect((await evaluateCall(statements, send)).decision).toBe('Allowed');
    expect((await evaluateCall(statements, elsewhere)).decision).toBe('ImplicitlyDenied');
    expect((await evaluateCall(statements, receive)).decision).toBe('ImplicitlyDenied');
  });
});

describe('SQS calls through the call checker', () => {
  it("forwards a call the function's role allows and refuses one it does not, as SQS does, and records both", async () => {
    const { source } = await queuePair();
    const fn: LocalFunction = {
      handler: 'sender',
      logicalId: 'SenderFunction',
      roleLogicalId: 'SenderRole',
      environment: {},
      statements: [{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: source.queueArn }],
      managedPolicyArns: [],
      timeoutSeconds: 10,
      memoryMb: 128,
    };
    const refused: string[] = [];
    const checker = awsCallChecker({
      functions: [fn],
      targets: { dynamodb: 'http://127.0.0.1:1', s3: 'http://127.0.0.1:1', ses: 'http://127.0.0.1:1', sqs: service.endpoint },
      onDenied: (call) => refused.push(`${call.action} ${call.resource}`),
    });
    const viaChecker = new SQSClient({
      endpoint: (await checker.endpointsFor(fn)).sqs,
      region: LOCAL_REGION,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 1,
    });
    try {
      await viaChecker.send(new SendMessageCommand({ QueueUrl: source.queueUrl, MessageBody: 'allowed' }));
      expect(await visibleIn(source.queueUrl)).toBe(1);
      await expect(viaChecker.send(new ReceiveMessageCommand({ QueueUrl: source.queueUrl }))).rejects.toMatchObject({
        name: expect.stringMatching(/AccessDenied/),
        $metadata: { httpStatusCode: 403 },
      });
      expect(refused).toEqual([`sqs:ReceiveMessage ${source.queueArn}`]);
    } finally {
      viaChecker.destroy();
      await checker.close();
    }
  });
});
