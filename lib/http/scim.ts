/**
 * The request pipeline of the SCIM routes: the same shape as operation()
 * (lib/http/operation.ts) with SCIM's own conventions — the body is
 * `application/scim+json` (or `application/json`), the caller is the SCIM
 * token the authorizer found live (audited as `scim:<token id>`; none: a
 * SCIM 401), answers carry `application/scim+json` and ETags, every
 * error is a SCIM error, and an Idempotency-Key is the token's own.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { ChangeContext } from '../audit/context';
import { useLambdaContext } from '../log';
import { recordMetric, withMetrics } from '../metrics';
import { answerDeadline, StillApplying } from '../slow-changes';
import { SCIM_BASE_PATH, type OperationName } from '../routes';
import { ID_PATTERN } from '../schemas/common';
import { Problem, type FieldError } from '../problems';
import { invalidSyntax, ScimError } from '../scim/errors';
import { shortened } from '../scim/input';
import { definedValues, lowerCaseHeaders, parseJsonBody } from './parse';
import { applyingResponse, scimPath } from './applying';
import { idempotency } from './idempotency';
import { methodOf, SECURITY_HEADERS, type HttpEvent, type HttpResponse } from './response';
import { oversizedDetail, payloadLimit } from './payload-limit';
import { logServerError } from './problem';
import { errorToScim } from './scim-errors';
import { missingScimToken, SCIM_CONTENT_TYPE, scimErrorResponse, scimTokenIdOf } from './scim-wire';

export interface ScimInput {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** Request headers, names lower-cased. */
  headers: Record<string, string | undefined>;
  /** `https://host/scim/v2`: where the resources live, for `meta.location`. */
  base: string;
  ctx: ChangeContext;
}

export interface ScimReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The base URL of the SCIM resources as the client reached them. */
function baseOf(event: HttpEvent, headers: Record<string, string | undefined>): string {
  const host = headers.host ?? event.requestContext?.domainName;
  const proto = headers['x-forwarded-proto'] ?? (host?.startsWith('localhost') || host?.startsWith('127.') ? 'http' : 'https');
  return host ? `${proto}://${host}${SCIM_BASE_PATH}` : SCIM_BASE_PATH;
}

/** What each path parameter of a SCIM route names. */
const RESOURCE_OF: Record<string, string> = { user_id: 'User', group_id: 'Group' };

/**
 * The path parameters, each an id of the admin API's pattern: one that is
 * not cannot name a resource, so it is a 404 before any read (a 3,000-character
 * one is no DynamoDB key).
 */
function pathIds(event: HttpEvent): Record<string, string> {
  const params = definedValues(event.pathParameters);
  for (const [name, value] of Object.entries(params)) {
    if (ID_PATTERN.test(value)) continue;
    throw new ScimError(undefined, `${RESOURCE_OF[name] ?? 'Resource'} "${shortened(value)}" does not exist.`, 404);
  }
  return params;
}

/** The JSON body, as parse.ts reads every body (size, media type, depth); one it cannot read is SCIM's `invalidSyntax`. */
function scimBody(event: HttpEvent, headers: Record<string, string | undefined>): unknown {
  try {
    return parseJsonBody(event.body, event.isBase64Encoded, headers['content-type']);
  } catch (error) {
    if (!(error instanceof Problem && error.slug === 'validation')) throw error;
    const errors = (error.extra as { errors?: FieldError[] }).errors ?? [];
    throw invalidSyntax(errors.map((e) => e.message).join(' ') || error.message);
  }
}

function toResponse(reply: ScimReply): HttpResponse {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...SECURITY_HEADERS, ...reply.headers };
  if (status === 204 || reply.body === undefined) return { statusCode: status, headers };
  headers['content-type'] = SCIM_CONTENT_TYPE;
  return { statusCode: status, headers, body: JSON.stringify(reply.body) };
}

/** The caller of a SCIM request, as the audit trail names it; none without a live token (the request is then refused). */
const scimCallerOf = (event: HttpEvent): string | undefined => {
  const tokenId = scimTokenIdOf(event);
  return tokenId ? `scim:${tokenId}` : undefined;
};

export type ScimHandler = ((event: HttpEvent, context: Context) => Promise<HttpResponse>) & { spec: { name: OperationName } };

/** `ScimRequests` by method and the status class of the answer; a handler that throws is API Gateway's 500. */
function countedScimRequests(handler: (event: HttpEvent, context: Context) => Promise<HttpResponse>) {
  return async (event: HttpEvent, context: Context): Promise<HttpResponse> => {
    let status = 500;
    try {
      const response = await handler(event, context);
      status = response.statusCode;
      return response;
    } finally {
      recordMetric('scimRequests', 1, { Method: methodOf(event) ?? 'unknown', Outcome: `${Math.floor(status / 100)}xx` });
    }
  };
}

/** The input of a SCIM operation from its request (the caller known to be there). */
function inputOf(event: HttpEvent, name: OperationName, caller: string, context?: Context): ScimInput {
  const headers = lowerCaseHeaders(event);
  return {
    params: pathIds(event),
    query: definedValues(event.queryStringParameters),
    body: scimBody(event, headers),
    headers,
    base: baseOf(event, headers),
    ctx: {
      actor: caller,
      requestId: event.requestContext?.requestId ?? context?.awsRequestId ?? 'unknown',
      operationId: name,
      deadline: answerDeadline(context?.getRemainingTimeInMillis?.()),
    },
  };
}

/** The answer, or 202 for a slow change that completes in the background (lib/slow-changes.ts). */
async function answer(work: () => Promise<ScimReply>): Promise<HttpResponse> {
  try {
    return toResponse(await work());
  } catch (error) {
    if (error instanceof StillApplying) return applyingResponse(scimPath(error.resource), SCIM_CONTENT_TYPE);
    throw error;
  }
}

/**
 * Builds the Lambda handler of one SCIM route of the route table; its audit entries name it (SCIM's routes have no
 * contract label). `settled`, for a change that may answer 202: what a repeat with the same Idempotency-Key answers
 * once it is complete (lib/http/operation.ts SlowChange).
 */
export function scimOperation(
  name: OperationName,
  run: (input: ScimInput) => Promise<ScimReply>,
  settled?: (input: ScimInput, resource: string) => Promise<ScimReply>,
): ScimHandler {
  const handler = middy<HttpEvent, HttpResponse, Error, Context>()
    .use({ before: (request) => useLambdaContext(request.context) })
    // Its `after` and `onError` run last (middy runs them in reverse), on the final answer.
    .use(payloadLimit((bytes) => scimErrorResponse(500, oversizedDetail(bytes))))
    .use({
      onError: async (request) => {
        const requestId = request.event?.requestContext?.requestId ?? request.context?.awsRequestId ?? 'unknown';
        const response = errorToScim(request.error, requestId);
        await logServerError(response.statusCode, request.error, requestId);
        request.response = response;
      },
    })
    .use(
      idempotency({
        callerOf: scimCallerOf,
        settle: settled && ((event, resource) => answer(() => settled(inputOf(event, name, scimCallerOf(event)!), resource))),
      }),
    )
    .handler(async (event, context) => {
      const caller = scimCallerOf(event);
      // The authorizer hands on the id of a live token only (see functions/scimAuthorizer.ts): refused here, as SCIM says.
      if (!caller) return missingScimToken();
      return answer(() => run(inputOf(event, name, caller, context)));
    });
  // Counted outside middy: an Idempotency-Key replay answers from a `before` middleware, and middy then skips the `after` stack.
  return Object.assign(withMetrics(countedScimRequests(handler)), { spec: { name } });
}
