/**
 * Idempotency-Key on every mutating route (API.md, "Safety for scripts").
 *
 * The algorithm is Powertools idempotency's (an in-progress record claimed
 * with a conditional put, completed with the response, deleted on failure),
 * written here over the service's own DynamoDB client: Powertools with its
 * JMESPath engine added ~40 KB to every function, which put every mutating
 * function past the cold-start budget (bench/, issue 7), for what is ~100
 * lines. The record lives in the service's table:
 *
 * - keyed on the header alone, across all routes, and bound to a hash of
 *   method, path and body: the same key with another request is 422
 *   `idempotency-key-reused`;
 * - a repeat within 24 hours replays the stored response (status, headers,
 *   body) without running the operation again;
 * - a repeat while the first still runs is 409 `conflict`: only one runs. An
 *   in-progress record whose request died is taken over once the function's
 *   time has run out;
 * - a request that fails stores nothing (its record is deleted), so a retry
 *   after a 4xx or 5xx runs again;
 * - requests without the header, and GETs, skip all of this and cost nothing.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { db, tableName } from '../db/client';
import { idempotencyKey } from '../db/keys';
import { TTL_ATTRIBUTE } from '../db/table';
import { isConditionFailure } from '../db/transact';
import { conflict, DomainError, validationError } from '../errors';
import type { HttpEvent } from './operation';
import type { HttpResponse } from './response';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RECORD_LIFETIME_SECONDS = 24 * 60 * 60;
/** Used when the context cannot say how long the function may still run (it always can on Lambda). */
const DEFAULT_IN_PROGRESS_MS = 30_000;

type Request = middy.Request<HttpEvent, HttpResponse, Error, Context>;

interface Claim {
  key: { pk: string; sk: string };
  payloadHash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The record this request owns, set once its claim succeeded. */
const claims = new WeakMap<Request, Claim>();

function headerKey(request: Request): string | undefined {
  if (request.event.requestContext?.http?.method === 'GET') return undefined; // reads are safe to repeat
  return request.event.headers?.[IDEMPOTENCY_HEADER];
}

async function claim(request: Request, key: string): Promise<HttpResponse | undefined> {
  const { event, context } = request;
  const record = idempotencyKey(sha256(key));
  const payloadHash = sha256(JSON.stringify([event.requestContext?.http?.method, event.rawPath, event.body ?? null]));
  const now = Date.now();
  const remaining = context?.getRemainingTimeInMillis?.() ?? DEFAULT_IN_PROGRESS_MS;
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...record,
          type: 'idempotency',
          status: 'in_progress',
          payload_hash: payloadHash,
          in_progress_until: now + remaining,
          [TTL_ATTRIBUTE]: Math.floor(now / 1000) + RECORD_LIFETIME_SECONDS,
        },
        // Free, expired (TTL deletes lazily), or left in progress by a request that died.
        ConditionExpression: 'attribute_not_exists(pk) OR #expires < :nowSeconds OR (#status = :inProgress AND in_progress_until < :now)',
        ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE, '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(now / 1000), ':now': now, ':inProgress': 'in_progress' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client does not unmarshal the item a failed condition returns.
    const stored = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
    const existing = stored ? unmarshall(stored) : undefined;
    if (existing?.payload_hash !== payloadHash) {
      throw new DomainError('idempotency-key-reused', 'This Idempotency-Key was used for a different request; use a new key.');
    }
    if (existing.status === 'completed') return JSON.parse(String(existing.response)) as HttpResponse;
    throw conflict('A request with this Idempotency-Key is still running; retry it shortly to get its answer.');
  }
  claims.set(request, { key: record, payloadHash });
  return undefined;
}

export function idempotency(): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  return {
    before: async (request) => {
      const key = headerKey(request);
      if (key === undefined) return;
      if (!KEY_PATTERN.test(key)) {
        throw validationError([{ field: 'Idempotency-Key', message: 'must be 1–255 printable characters without spaces' }]);
      }
      // A stored answer ends the request here: middy returns it without running the operation.
      return claim(request, key);
    },
    after: async (request) => {
      const owned = claims.get(request);
      if (!owned || !request.response) return;
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: owned.key,
          UpdateExpression: 'SET #status = :completed, #response = :response REMOVE in_progress_until',
          ConditionExpression: '#status = :inProgress AND payload_hash = :hash',
          ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
          ExpressionAttributeValues: {
            ':completed': 'completed',
            ':response': JSON.stringify(request.response),
            ':inProgress': 'in_progress',
            ':hash': owned.payloadHash,
          },
        }),
      );
    },
    onError: async (request) => {
      const owned = claims.get(request);
      if (!owned) return; // this request never owned a record, so it must not delete one
      claims.delete(request);
      await db()
        .send(
          new DeleteCommand({
            TableName: tableName(),
            Key: owned.key,
            ConditionExpression: '#status = :inProgress AND payload_hash = :hash',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':inProgress': 'in_progress', ':hash': owned.payloadHash },
          }),
        )
        // If this fails, the record stays in progress until its time runs out and is then taken over;
        // the request's own error is the one to answer with.
        .catch(() => undefined);
    },
  };
}
