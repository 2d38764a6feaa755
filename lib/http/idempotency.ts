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
 * - a key belongs to its caller (the audit actor: the token's subject, or
 *   `scim:<token id>`): the record is keyed on a hash of caller and key, so
 *   another caller's same key is simply another key;
 * - the record is bound to a hash of method, path (without the `.json`
 *   suffix), query (parameters sorted) and body: the same key with another
 *   request is 422 `idempotency-key-reused`;
 * - a repeat within 24 hours replays the stored response (status, headers,
 *   body) without running the operation again; a stored 202 of a slow change
 *   (lib/http/applying.ts) is replayed while the change applies, and once it
 *   is complete the repeat answers what the operation answers for its
 *   resource as it now is (`settle`);
 * - an answer that carries a secret (the route table's `secretInAnswer`) is
 *   never stored: the record is closed as `secret_shown`, and a repeat is
 *   409 `conflict`;
 * - once the operation has answered, its change is committed: storing the
 *   answer never turns it into an error. If the answer cannot be kept (even
 *   gzipped and split), the record is closed as `answer_lost` and a repeat is
 *   409, rather than deleted, which would let the repeat run the change again;
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
import { log } from '../log';
import { recordMetric } from '../metrics';
import { conflict, Problem, validationError } from '../problems';
import { StillApplying } from '../slow-changes';
import { claimRecord, closeRecord, completeRecord, releaseRecord, type HeldRecord, type IdempotencyClaim } from '../store/idempotency';
import { applyingResource } from './applying';
import type { HttpEvent, HttpResponse } from './response';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RECORD_LIFETIME_SECONDS = 24 * 60 * 60;
/** Used when the context cannot say how long the function may still run (it always can on Lambda). */
const DEFAULT_IN_PROGRESS_MS = 30_000;

type Request = middy.Request<HttpEvent, HttpResponse, Error, Context>;

export interface IdempotencyOptions {
  /** Who is asking, as the audit trail names them: keys are the caller's own. None: the request is refused anyway, and keeps no record. */
  callerOf: (event: HttpEvent) => string | undefined;
  /** The operation's successful answer carries a secret shown once: it is never stored. */
  secretInAnswer?: boolean;
  /** The final answer of a slow change the first request answered 202, from the resource it named; throws StillApplying while it applies. */
  settle?: (event: HttpEvent, resource: string) => Promise<HttpResponse>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The hash a record is keyed on: the caller's own key. */
export const recordHash = (caller: string, key: string) => sha256(JSON.stringify([caller, key]));

/** `.json` ends a path or a path parameter only as the suffix the router accepts (ids never contain a dot). */
const withoutJsonSuffix = (path: string) => path.replace(/\.json(?=\/|$)/g, '');

/** The query's parameters in one order, so that `?a=1&b=2` is the same request as `?b=2&a=1`. */
function sortedQuery(rawQueryString: string | undefined): Array<[string, string]> {
  const pairs = [...new URLSearchParams(rawQueryString ?? '')];
  // Stable: repeated parameters keep their order, which may mean something.
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What makes two requests the same: method, path, query and body. */
export function requestHash(request: { method?: string; path: string; rawQueryString?: string; body?: string | null }): string {
  return sha256(
    JSON.stringify([request.method, withoutJsonSuffix(request.path), sortedQuery(request.rawQueryString), request.body ?? null]),
  );
}

/** The record this request owns, set once its claim succeeded. */
const claims = new WeakMap<Request, IdempotencyClaim>();

function headerKey(request: Request): string | undefined {
  const method = request.event.requestContext?.http?.method;
  if (method === 'GET' || method === 'HEAD') return undefined; // reads are safe to repeat
  return request.event.headers?.[IDEMPOTENCY_HEADER];
}

/** What a repeat is answered with, from the record the first request left. */
async function repeatAnswer(held: HeldRecord, event: HttpEvent, options: IdempotencyOptions): Promise<HttpResponse> {
  switch (held.status) {
    case 'completed': {
      const answer = JSON.parse(await held.answer()) as HttpResponse;
      recordMetric('idempotentReplays', 1, {});
      const resource = applyingResource(answer);
      if (resource === undefined || !options.settle) return answer;
      try {
        return await options.settle(event, resource);
      } catch (error) {
        if (error instanceof StillApplying) return answer;
        throw error;
      }
    }
    case 'secret_shown':
      throw conflict(
        'The answer to the first request with this Idempotency-Key held a secret, which is shown only once and is not kept: ' +
          'create a new one (with a new key), and revoke the first if nobody has it.',
      );
    case 'answer_lost':
      throw conflict(
        'The first request with this Idempotency-Key was carried out, but its answer could not be kept: ' +
          'read the resource to see the result; running the request again would repeat the change.',
      );
    case 'in_progress':
      throw conflict('A request with this Idempotency-Key is still running; retry it shortly to get its answer.');
  }
}

async function claim(request: Request, caller: string, key: string, options: IdempotencyOptions): Promise<HttpResponse | undefined> {
  const { event, context } = request;
  const now = Date.now();
  const owned: IdempotencyClaim = {
    keyHash: recordHash(caller, key),
    payloadHash: requestHash({
      method: event.requestContext?.http?.method,
      path: event.rawPath,
      rawQueryString: event.rawQueryString,
      body: event.body,
    }),
    expiresAt: Math.floor(now / 1000) + RECORD_LIFETIME_SECONDS,
  };
  const remaining = context?.getRemainingTimeInMillis?.() ?? DEFAULT_IN_PROGRESS_MS;
  const held = await claimRecord(owned, now, now + remaining);
  if (!held) {
    claims.set(request, owned);
    return undefined;
  }
  if (held.payloadHash !== owned.payloadHash) {
    throw new Problem('idempotency-key-reused', 'This Idempotency-Key was used for a different request; use a new key.');
  }
  return repeatAnswer(held, event, options);
}

/**
 * Keeps the answer of a committed change for its repeats. Never throws: the
 * change is made, and the caller gets its answer whatever happens here.
 */
async function keepAnswer(owned: IdempotencyClaim, response: HttpResponse, options: IdempotencyOptions): Promise<void> {
  const succeeded = response.statusCode >= 200 && response.statusCode < 300;
  try {
    if (options.secretInAnswer && succeeded) await closeRecord(owned, 'secret_shown');
    else await completeRecord(owned, JSON.stringify(response));
    return;
  } catch (error) {
    await log('error', 'The answer of a request with an Idempotency-Key could not be kept', {
      error: error as Error,
      record: owned.keyHash,
    });
  }
  // If this fails too, the record stays in progress until its time runs out and may then be taken over.
  await closeRecord(owned, 'answer_lost').catch((error: unknown) =>
    log('error', 'An Idempotency-Key record could not be closed; it stays in progress until its time runs out', {
      error: error as Error,
      record: owned.keyHash,
    }),
  );
}

export function idempotency(options: IdempotencyOptions): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  return {
    before: async (request) => {
      const key = headerKey(request);
      const caller = options.callerOf(request.event);
      if (key === undefined || caller === undefined) return;
      if (!KEY_PATTERN.test(key)) {
        throw validationError([{ field: 'Idempotency-Key', message: 'must be 1–255 printable characters without spaces' }]);
      }
      // A stored answer ends the request here: middy returns it without running the operation.
      return claim(request, caller, key, options);
    },
    after: async (request) => {
      const owned = claims.get(request);
      if (!owned || !request.response) return;
      claims.delete(request);
      // Not even a failed log line may turn the committed change's answer into a 5xx.
      await keepAnswer(owned, request.response, options).catch(() => undefined);
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
