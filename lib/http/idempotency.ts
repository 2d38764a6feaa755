/**
 * Idempotency-Key on every mutating route (docs/safety.md):
 * the middleware. Its records are kept by lib/store/idempotency.ts.
 *
 * The algorithm is Powertools idempotency's (an in-progress record claimed
 * with a conditional put, completed with the response, deleted on failure),
 * written over the service's own DynamoDB client: Powertools with its
 * JMESPath engine added ~40 KB to every function, which put every mutating
 * function past the cold-start budget (docs/performance.md), for what is ~100
 * lines.
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
 * - requests without the header, and GETs and HEADs, skip all of this and cost nothing.
 */
import { createHash } from 'node:crypto';
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { conflict, Problem, validationError } from '../problems';
import { claimRecord, completeRecord, releaseRecord, type IdempotencyClaim } from '../store/idempotency';
import type { HttpEvent, HttpResponse } from './response';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RECORD_LIFETIME_SECONDS = 24 * 60 * 60;
/** Used when the context cannot say how long the function may still run (it always can on Lambda). */
const DEFAULT_IN_PROGRESS_MS = 30_000;

type Request = middy.Request<HttpEvent, HttpResponse, Error, Context>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The record this request owns, set once its claim succeeded. */
const claims = new WeakMap<Request, IdempotencyClaim>();

function headerKey(request: Request): string | undefined {
  const method = request.event.requestContext?.http?.method;
  if (method === 'GET' || method === 'HEAD') return undefined; // reads are safe to repeat
  return request.event.headers?.[IDEMPOTENCY_HEADER];
}

async function claim(request: Request, key: string): Promise<HttpResponse | undefined> {
  const { event, context } = request;
  const owned: IdempotencyClaim = {
    keyHash: sha256(key),
    payloadHash: sha256(JSON.stringify([event.requestContext?.http?.method, event.rawPath, event.body ?? null])),
  };
  const now = Date.now();
  const remaining = context?.getRemainingTimeInMillis?.() ?? DEFAULT_IN_PROGRESS_MS;
  const existing = await claimRecord(owned, now, now + remaining, RECORD_LIFETIME_SECONDS);
  if (existing) {
    if (existing.payload_hash !== owned.payloadHash) {
      throw new Problem('idempotency-key-reused', 'This Idempotency-Key was used for a different request; use a new key.');
    }
    if (existing.status === 'completed') return JSON.parse(String(existing.response)) as HttpResponse;
    throw conflict('A request with this Idempotency-Key is still running; retry it shortly to get its answer.');
  }
  claims.set(request, owned);
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
      await completeRecord(owned, JSON.stringify(request.response));
    },
    onError: async (request) => {
      const owned = claims.get(request);
      if (!owned) return; // this request never owned a record, so it must not delete one
      claims.delete(request);
      // If this fails, the record stays in progress until its time runs out and is then taken over;
      // the request's own error is the one to answer with.
      await releaseRecord(owned).catch(() => undefined);
    },
  };
}
