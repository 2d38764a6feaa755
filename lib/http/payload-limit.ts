/**
 * The most a Lambda function invoked synchronously (API Gateway's call) may
 * return: 6 MB of response payload, counted on the JSON of the whole
 * response object (status, headers, body). Past it Lambda fails the call and
 * API Gateway answers a bare 500; here such an answer becomes a clear,
 * logged problem instead. Bounds on every answer (a group's first 1,000
 * users, list counts) keep it from happening; this is the net under them.
 */
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { log } from '../log';
import type { HttpEvent, HttpResponse } from './response';

/** Lambda's limit on a synchronous invocation's response payload (6 MB). */
export const MAX_RESPONSE_PAYLOAD_BYTES = 6_291_456;

/** The size of a response as Lambda counts it: the JSON of the whole result. */
export const responsePayloadBytes = (response: unknown): number => Buffer.byteLength(JSON.stringify(response) ?? '', 'utf8');

export const oversizedDetail = (bytes: number) =>
  `The answer is ${bytes} bytes, more than the ${MAX_RESPONSE_PAYLOAD_BYTES} a function of this service can return; ask for a smaller page (count).`;

/**
 * Replaces a response over the limit (after the handler, and after an error
 * turned into one) by `oversized(bytes)`, in the pipeline's own format, and
 * logs it: it means a bound is missing somewhere.
 */
export function payloadLimit(oversized: (bytes: number) => HttpResponse): middy.MiddlewareObj<HttpEvent, HttpResponse, Error, Context> {
  const check = async (request: middy.Request<HttpEvent, HttpResponse, Error, Context>) => {
    if (!request.response) return;
    const bytes = responsePayloadBytes(request.response);
    if (bytes <= MAX_RESPONSE_PAYLOAD_BYTES) return;
    const requestId = request.event?.requestContext?.requestId ?? request.context?.awsRequestId ?? 'unknown';
    await log('error', 'Answered 500: the response exceeds what Lambda can return', {
      requestId,
      bytes,
      limit: MAX_RESPONSE_PAYLOAD_BYTES,
      routeKey: request.event?.routeKey,
    });
    request.response = oversized(bytes);
  };
  return { after: check, onError: check };
}
