import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '../config';
import { traced } from '../tracing';

let client: LambdaClient | undefined;

/** The shared Lambda client, made on first use. */
export function lambda(): LambdaClient {
  if (!client) {
    const { region } = config();
    client = traced(new LambdaClient({ region }));
  }
  return client;
}

/**
 * Invokes a function asynchronously (InvocationType Event): Lambda queues the event, retries the function's
 * failures itself, and sends what still fails to the function's on-failure destination. Throws unless Lambda
 * took the event.
 */
export async function invokeAsync(functionName: string, payload: unknown): Promise<void> {
  const answer = await lambda().send(
    new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify(payload)) }),
  );
  if (answer.StatusCode !== 202) throw new Error(`Lambda did not take the event for ${functionName}: status ${answer.StatusCode}`);
}
