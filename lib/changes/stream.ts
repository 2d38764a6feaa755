/**
 * The table stream's one reader (the StreamRouter, lib/background.ts): AWS
 * advises at most two readers per stream shard, so every background worker
 * that follows the table gets its records from here, and a new one adds no
 * reader. For each batch of records (the mapping filters them to these):
 *
 * - audit-entry inserts: their entries get their places in the change feed
 *   (lib/changes/sequencer.ts);
 * - feed-entry inserts: one event each on the change bus, the entry in plain
 *   JSON exactly as GET /v2/changes gives it, in the feed's order (the
 *   stream keeps one item collection's records in order, and a shard's feed
 *   is one collection);
 * - records a worker follows (report jobs, rule work): handed to it by an
 *   asynchronous invoke with a stream event of those records, so the worker's
 *   handler is the one a mapping of its own would call; Lambda retries the
 *   worker's failures and keeps what still fails in the worker's dead-letter
 *   queue.
 *
 * A record that fails is reported (ReportBatchItemFailures): the mapping
 * retries from the earliest one reported, so records after it are handled
 * again. Each part bears that: an entry already placed is not placed again,
 * an event published twice is a duplicate with the same id (the webhooks'
 * receivers see the same `webhook-id`), and the workers' work is idempotent.
 * An entry whose records keep failing still has its pending mark, and the
 * maintenance sweep places it.
 */
import type { AttributeValue as StreamValue, DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from '../db/table';
import { log } from '../log';
import { isAuditItem } from '../store/audit';
import { feedEntryOf, type FeedEntry } from '../store/feed';
import type { AuditEntry } from '../schemas/responses';

/** A worker the router hands records to. */
export interface RoutedWorker {
  name: string;
  /** Its items: string attributes of a record's new image. */
  items: Record<string, string>;
  functionName: string;
}

export interface StreamRouterDeps {
  /** Places audit entries in the feed; answers how many it placed. */
  sequence(entries: Item[]): Promise<number>;
  /** Publishes changes in order; answers how many, from the first, went through. */
  publish(changes: AuditEntry[]): Promise<number>;
  /** Invokes a worker asynchronously with a stream event. */
  invoke(functionName: string, event: { Records: DynamoDBRecord[] }): Promise<void>;
  workers: RoutedWorker[];
}

/** An asynchronous invoke takes 1 MB; records are sent in events well under it. */
const EVENT_BYTES = 256_000;

const imageOf = (record: DynamoDBRecord): Item | undefined =>
  record.dynamodb?.NewImage ? unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>) : undefined;

const matches = (record: DynamoDBRecord, items: Record<string, string>) =>
  (record.eventName === 'INSERT' || record.eventName === 'MODIFY') &&
  Object.entries(items).every(([name, value]) => (record.dynamodb?.NewImage?.[name] as StreamValue | undefined)?.S === value);

/** Records in events of at most EVENT_BYTES each. */
function events(records: DynamoDBRecord[]): DynamoDBRecord[][] {
  const out: DynamoDBRecord[][] = [];
  let bytes = 0;
  for (const record of records) {
    const size = JSON.stringify(record).length;
    if (out.length === 0 || bytes + size > EVENT_BYTES) {
      out.push([]);
      bytes = 0;
    }
    out.at(-1)!.push(record);
    bytes += size;
  }
  return out;
}

/** Handles one batch; answers the records that failed (the mapping retries from the earliest). */
export async function routeRecords(records: DynamoDBRecord[], deps: StreamRouterDeps): Promise<DynamoDBBatchResponse> {
  const audit: Array<{ record: DynamoDBRecord; item: Item }> = [];
  const feed: Array<{ record: DynamoDBRecord; entry: FeedEntry }> = [];
  const routed = new Map<RoutedWorker, DynamoDBRecord[]>();
  for (const record of records) {
    const image = imageOf(record);
    const feedEntry = record.eventName === 'INSERT' ? feedEntryOf(image) : undefined;
    if (record.eventName === 'INSERT' && isAuditItem(image)) audit.push({ record, item: image });
    else if (feedEntry) feed.push({ record, entry: feedEntry });
    else {
      const worker = deps.workers.find((candidate) => matches(record, candidate.items));
      if (worker) routed.set(worker, [...(routed.get(worker) ?? []), record]);
    }
  }

  const failed: DynamoDBRecord[] = [];
  const fail = async (what: string, from: DynamoDBRecord | undefined, error?: unknown) => {
    if (!from) return;
    failed.push(from);
    await log('error', `stream router: ${what} failed; the batch is retried from its record`, {
      sequence_number: from.dynamodb?.SequenceNumber,
      ...(error ? { error: error as Error } : {}),
    });
  };
  await Promise.all([
    audit.length > 0 &&
      deps.sequence(audit.map(({ item }) => item)).catch((error: unknown) => fail('sequencing audit entries', audit[0].record, error)),
    feed.length > 0 &&
      deps
        .publish(feed.map(({ entry }) => entry.entry))
        .then((published) => (published < feed.length ? fail('publishing to the change bus', feed[published].record) : undefined))
        .catch((error: unknown) => fail('publishing to the change bus', feed[0].record, error)),
    ...[...routed].map(async ([worker, workerRecords]) => {
      for (const event of events(workerRecords)) {
        try {
          await deps.invoke(worker.functionName, { Records: event });
        } catch (error) {
          await fail(`invoking ${worker.name}`, event[0], error);
          return;
        }
      }
    }),
  ]);
  return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' })) };
}
