import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config, resourceName } from '../config';
import { traced } from '../tracing';

let client: SQSClient | undefined;

/** The shared SQS client, made on first use (its endpoint is the local stand-in's on the local stack: SQS_ENDPOINT). */
function sqs(): SQSClient {
  if (!client) {
    const { region, endpoints } = config();
    client = traced(new SQSClient({ region, endpoint: endpoints.sqs }));
  }
  return client;
}

/** A message body (JSON) and how many seconds SQS holds it back (at most 900). */
export interface OutgoingMessage {
  body: unknown;
  delaySeconds: number;
}

/** SQS takes at most 10 messages a call. */
const BATCH = 10;

/** Sends messages to the webhook delivery queue (WEBHOOK_QUEUE_URL); throws unless every one was accepted. */
export async function sendToWebhookQueue(messages: OutgoingMessage[]): Promise<void> {
  const queueUrl = resourceName('WEBHOOK_QUEUE_URL');
  for (let start = 0; start < messages.length; start += BATCH) {
    const entries = messages.slice(start, start + BATCH).map((message, i) => ({
      Id: String(i),
      MessageBody: JSON.stringify(message.body),
      DelaySeconds: message.delaySeconds,
    }));
    const answer = await sqs().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    if (answer.Failed?.length) {
      const [first] = answer.Failed;
      throw new Error(`the webhook queue refused ${answer.Failed.length} message(s): ${first.Code} ${first.Message ?? ''}`);
    }
  }
}
