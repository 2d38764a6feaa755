/**
 * Idempotency-Key on every mutating route (API.md, "Safety for scripts"):
 * Powertools idempotency with its DynamoDB persistence in the service's table.
 *
 * - The record is keyed on the header alone, across all routes (one key
 *   prefix), and validated on a hash of method, path and body: the same key
 *   with another request is 422 `idempotency-key-reused`.
 * - A repeat within 24 hours replays the stored response (status, headers,
 *   body) without running the operation again.
 * - A repeat while the first is still running is 409 `conflict`; only the
 *   first runs.
 * - An operation that fails stores nothing (Powertools deletes its in-progress
 *   record), so a retry after a 4xx or 5xx runs again.
 * - Requests without the header, and GETs, skip all of this and cost nothing extra.
 */
import { IDEMPOTENCY_KEY } from '@aws-lambda-powertools/commons';
import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { db, tableName } from '../db/client';
import { PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '../db/table';
import { conflict, DomainError, validationError } from '../errors';
import type { HttpEvent } from './operation';
import type { HttpResponse } from './response';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const SKIP_FLAG = `${IDEMPOTENCY_KEY}.skip`;

type Middleware = middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context>;
let powertools: Middleware | undefined;

/** Made on first use: the table name comes from configuration at run time. */
function powertoolsMiddleware(): Middleware {
  powertools ??= makeHandlerIdempotent({
    persistenceStore: new DynamoDBPersistenceLayer({
      tableName: tableName(),
      keyAttr: PARTITION_KEY,
      sortKeyAttr: SORT_KEY,
      staticPkValue: 'IDEMPOTENCY',
      expiryAttr: TTL_ATTRIBUTE,
      awsSdkV3Client: db(),
    }),
    keyPrefix: 'request',
    config: new IdempotencyConfig({
      eventKeyJmesPath: `headers."${IDEMPOTENCY_HEADER}"`,
      payloadValidationJmesPath: '[requestContext.http.method, rawPath, body]',
      expiresAfterSeconds: 24 * 60 * 60,
      throwOnNoIdempotencyKey: false,
    }),
  }) as Middleware;
  return powertools;
}

function asProblem(error: unknown): unknown {
  switch ((error as { name?: string }).name) {
    case 'IdempotencyValidationError':
      return new DomainError('idempotency-key-reused', 'This Idempotency-Key was used for a different request; use a new key.');
    case 'IdempotencyAlreadyInProgressError':
      return conflict('A request with this Idempotency-Key is still running; retry it shortly to get its answer.');
    default:
      return error;
  }
}

type Request = middy.Request<HttpEvent, HttpResponse, Error, Context>;
const internal = (request: Request) => request.internal as Record<string, unknown>;
/** Reads are safe to repeat: only mutating methods take part. */
const keyOf = (request: Request) =>
  request.event.requestContext?.http?.method === 'GET' ? undefined : request.event.headers?.[IDEMPOTENCY_HEADER];
const skipped = (request: Request) => keyOf(request) === undefined || internal(request)[SKIP_FLAG] === true;

export function idempotency(): Middleware {
  return {
    before: async (request) => {
      const key = keyOf(request);
      if (key === undefined) return;
      if (!KEY_PATTERN.test(key)) {
        throw validationError([{ field: 'Idempotency-Key', message: 'must be 1–255 printable characters without spaces' }]);
      }
      try {
        return await powertoolsMiddleware().before!(request);
      } catch (error) {
        // This request never owned the record: its onError must not delete the one that does.
        internal(request)[SKIP_FLAG] = true;
        throw asProblem(error);
      }
    },
    after: async (request) => {
      if (!skipped(request)) await powertoolsMiddleware().after!(request);
    },
    onError: async (request) => {
      if (!skipped(request)) await powertoolsMiddleware().onError!(request);
    },
  };
}
