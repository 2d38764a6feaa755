/**
 * The request pipeline every route handler is built with: parse and validate
 * the request, check its Idempotency-Key, run the operation (which calls the
 * domain), shape its reply, and turn any error into problem+json.
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { $ZodType } from 'zod/v4/core';
import type { ChangeContext } from '../audit/context';
import { useLambdaContext } from '../log';
import { withMetrics } from '../metrics';
import { answerDeadline, StillApplying } from '../slow-changes';
import { auditedOperation, routes, type OperationName } from '../routes';
import { adminPath, applyingResponse } from './applying';
import { idempotency } from './idempotency';
import { oversizedDetail, payloadLimit } from './payload-limit';
import { errorToProblem, logServerError, problemResponse } from './problem';
import { definedValues, lowerCaseHeaders, parseJsonBody, validate } from './parse';
import {
  answerFor,
  jsonResponse,
  type Reply,
  methodOf,
  type HttpEvent,
  type HttpResponse,
  type OnlyDocumentedFields,
  type ReplyOf,
} from './response';

export type { HttpEvent };

/** Who is asking and for what; recorded with every change. */
export type RequestContext = ChangeContext;

export interface OperationInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Request headers, names lower-cased. */
  headers: Record<string, string | undefined>;
  /** The path as requested and its query parameters as sent (for links to other pages of a list). */
  path: string;
  rawQuery: Record<string, string>;
  ctx: RequestContext;
}

/** Input schemas of an operation; they validate requests and document them. */
export interface InputSchemas<P, Q, B> {
  params?: $ZodType<P>;
  query?: $ZodType<Q>;
  /** Present for operations that take a JSON body. */
  body?: $ZodType<B>;
}

type ParsedEvent<P, Q, B> = HttpEvent & { parsed: OperationInput<P, Q, B> };

const JSON_SUFFIX = '.json';

/** Path parameters with the optional `.json` suffix removed (ids never contain a dot). */
function normalizedPathParameters(event: HttpEvent): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if (value === undefined) continue;
    params[name] = value.endsWith(JSON_SUFFIX) ? value.slice(0, -JSON_SUFFIX.length) : value;
  }
  return params;
}

/** Who is asking: the token's subject. The audit trail records it, and Idempotency-Keys are its own. */
function actorOf(event: HttpEvent): string {
  const claims = event.requestContext?.authorizer?.jwt?.claims ?? {};
  return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : 'anonymous';
}

function requestContext(event: HttpEvent, audited: string, context: Context): RequestContext {
  return {
    actor: actorOf(event),
    requestId: event.requestContext?.requestId ?? context.awsRequestId,
    operationId: audited,
    deadline: answerDeadline(context?.getRemainingTimeInMillis?.()),
  };
}

/** Parses and validates path, query and body before the operation runs. */
function parseRequest<P, Q, B>(
  spec: OperationSpec<P, Q, B>,
  audited: string,
): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  return {
    before: (request) => {
      const event = request.event;
      const headers = lowerCaseHeaders(event);
      const params = spec.params ? validate(spec.params, normalizedPathParameters(event), 'path') : ({} as P);
      const query = spec.query ? validate(spec.query, event.queryStringParameters ?? {}, 'query') : ({} as Q);
      const body = spec.body
        ? validate(spec.body, parseJsonBody(event.body, event.isBase64Encoded, headers['content-type']), 'body')
        : (undefined as B);
      (event as ParsedEvent<P, Q, B>).parsed = {
        params,
        query,
        body,
        headers,
        path: event.rawPath,
        rawQuery: definedValues(event.queryStringParameters),
        ctx: requestContext(event, audited, request.context),
      };
    },
  };
}

/** HEAD is answered as GET without the body; registered first, so it sees the final answer, problems included. */
function headWithoutBody(): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  const strip = async (request: middy.Request<HttpEvent, HttpResponse, Error, Context>) => {
    if (request.response) request.response = answerFor(methodOf(request.event), request.response);
  };
  return { after: strip, onError: strip };
}

/** Turns any error into problem+json; a 5xx is logged with what it stands for and the request id. */
function problemDetails(): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  return {
    onError: async (request) => {
      const requestId = request.event?.requestContext?.requestId ?? request.context?.awsRequestId ?? 'unknown';
      const response = errorToProblem(request.error, requestId);
      await logServerError(response.statusCode, request.error, requestId);
      request.response = response;
    },
  };
}

/**
 * An operation whose change may complete after its answer (lib/slow-changes.ts): it then answers 202, and a repeat
 * with the same Idempotency-Key answers `settled`, the operation's answer for the resource the 202 named as it now
 * is (which throws StillApplying while the change still applies).
 */
export interface SlowChange<P, Q, B, R> {
  settled: (input: OperationInput<P, Q, B>, resource: string) => Promise<R>;
}

/** The operation's schemas with its name, as a handler exposes them (`handler.spec`) to the OpenAPI generator. */
export interface OperationSpec<P, Q, B> extends InputSchemas<P, Q, B> {
  name: OperationName;
}

export type OperationHandler<P, Q, B> = ((event: HttpEvent, context: Context) => Promise<HttpResponse>) & {
  spec: OperationSpec<P, Q, B>;
};

/**
 * Builds a Lambda handler for the operation of the route table named `name`:
 * a middy pipeline that parses and validates input, runs `run` (which calls
 * the domain) and shapes its reply, which must be one the operation's
 * documented responses describe (ReplyOf). Its changes are audited under the
 * operation's contract label, if it has one (routes.ts auditedOperation).
 * The metrics it records are written when it ends (lib/metrics.ts withMetrics).
 */
export function operation<
  Name extends OperationName,
  R extends ReplyOf<Name>,
  P = Record<string, never>,
  Q = Record<string, never>,
  B = undefined,
>(
  name: Name,
  schemas: InputSchemas<P, Q, B>,
  run: (input: OperationInput<P, Q, B>) => Promise<R & OnlyDocumentedFields<R, ReplyOf<Name>>>,
  slow?: SlowChange<P, Q, B, ReplyOf<Name>>,
): OperationHandler<P, Q, B> {
  const spec: OperationSpec<P, Q, B> = { name, ...schemas };
  const answer = async (work: () => Promise<Reply>) => {
    try {
      return jsonResponse(await work());
    } catch (error) {
      if (error instanceof StillApplying) return applyingResponse(adminPath(error.resource));
      throw error;
    }
  };
  const handler = middy<HttpEvent, HttpResponse, Error, Context>()
    .use({ before: (request) => useLambdaContext(request.context) })
    // Its `after` runs last (middy runs them in reverse), on the final answer.
    .use(payloadLimit((bytes) => problemResponse('internal', oversizedDetail(bytes))))
    .use(headWithoutBody())
    .use(problemDetails())
    .use(parseRequest(spec, auditedOperation(name)))
    .use(
      idempotency({
        callerOf: actorOf,
        secretInAnswer: routes.find((route) => route.name === name)?.secretInAnswer,
        settle: slow && ((event, resource) => answer(() => slow.settled((event as ParsedEvent<P, Q, B>).parsed, resource))),
      }),
    )
    .handler(async (event) => answer(() => run((event as ParsedEvent<P, Q, B>).parsed)));
  return Object.assign(withMetrics(handler), { spec });
}
