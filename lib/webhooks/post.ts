/**
 * One delivery attempt on the wire: a POST to the endpoint, connected to the
 * address the SSRF guard checked (the request's `lookup` answers that one,
 * so no second resolution can point it elsewhere; TLS still verifies the
 * certificate against the URL's host name), within a time limit (10 s),
 * redirects not followed (a 3xx is a failed attempt: following one would
 * reach an address nobody checked). Only a 2xx is a success. The answer's
 * body is not needed: at most a few KB of it are read, for a clean close.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './address-guard';
import type { SignedDelivery } from './signing';

export const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4096;

export interface AttemptOutcome {
  ok: boolean;
  /** The answer's status, or null when none came. */
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** Answers every lookup with the checked address. */
const pinnedLookup =
  ({ address, family }: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

function outcomeOf(status: number, started: number): AttemptOutcome {
  const duration_ms = Math.round(performance.now() - started);
  if (status >= 200 && status < 300) return { ok: true, status_code: status, duration_ms, error: null };
  const error = status >= 300 && status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`;
  return { ok: false, status_code: status, duration_ms, error };
}

export function postDelivery(
  url: URL,
  address: ResolvedAddress,
  delivery: SignedDelivery,
  timeoutMs: number = ATTEMPT_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const failed = (error: string) => settle({ ok: false, status_code: null, duration_ms: Math.round(performance.now() - started), error });
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...delivery.headers, 'content-length': Buffer.byteLength(delivery.body), 'user-agent': 'dept-admin-webhooks' },
        lookup: pinnedLookup(address),
        agent: false,
      },
      (response: IncomingMessage) => {
        let read = 0;
        const done = () => {
          settle(outcomeOf(response.statusCode ?? 0, started));
          req.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      failed(`no answer within ${timeoutMs / 1000} s`);
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => failed(`connection failed: ${error.code ?? error.message}`));
    req.end(delivery.body);
  });
}
