import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { CHANGE_EVENT_DETAIL_TYPE, CHANGE_EVENT_SOURCE, config, resourceName } from '../config';
import { traced } from '../tracing';

let client: EventBridgeClient | undefined;

/** The shared EventBridge client, made on first use. */
export function events(): EventBridgeClient {
  if (!client) {
    const { region } = config();
    client = traced(new EventBridgeClient({ region }));
  }
  return client;
}

/** PutEvents takes at most 10 entries, and 1 MB in all (an entry is at most an item's 400 KB and its envelope). */
const ENTRIES_PER_CALL = 10;
const BYTES_PER_CALL = 900_000;
const ATTEMPTS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Puts one event per change on the change bus (CHANGE_BUS_NAME), in the order given, its detail the change as plain
 * JSON. Answers how many of the changes, from the first, the bus accepted: an entry it keeps refusing (after
 * retries) stops the rest, so that a retry of the caller's starts there and the order holds.
 */
export async function publishChanges(changes: readonly unknown[]): Promise<number> {
  const bus = resourceName('CHANGE_BUS_NAME');
  const entries: PutEventsRequestEntry[] = changes.map((change) => ({
    EventBusName: bus,
    Source: CHANGE_EVENT_SOURCE,
    DetailType: CHANGE_EVENT_DETAIL_TYPE,
    Detail: JSON.stringify(change),
  }));
  let published = 0;
  while (published < entries.length) {
    const call: PutEventsRequestEntry[] = [];
    let bytes = 0;
    for (const entry of entries.slice(published, published + ENTRIES_PER_CALL)) {
      const size = Buffer.byteLength(entry.Detail!) + 64;
      if (call.length > 0 && bytes + size > BYTES_PER_CALL) break;
      call.push(entry);
      bytes += size;
    }
    let accepted = 0;
    for (let attempt = 0; accepted < call.length; attempt++) {
      if (attempt === ATTEMPTS) return published + accepted;
      if (attempt > 0) await sleep(100 * 2 ** attempt);
      const answer = await events().send(new PutEventsCommand({ Entries: call.slice(accepted) }));
      // The answer's entries are in the request's order: the leading ones with an EventId went through.
      const firstRefused = (answer.Entries ?? []).findIndex((result) => !result.EventId);
      accepted += firstRefused < 0 ? call.length - accepted : firstRefused;
    }
    published += call.length;
  }
  return published;
}
