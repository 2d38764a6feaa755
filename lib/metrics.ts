/**
 * The service's business metrics, one home for their names, units and
 * dimensions: the code that knows a fact (lib/) records it here, and
 * `withMetrics` writes an invocation's metrics once, when it ends, as
 * CloudWatch embedded metric format (EMF) lines on stdout (Powertools
 * Metrics); CloudWatch Logs turns those lines into metrics in the
 * METRICS_NAMESPACE namespace, each with the `service` dimension besides its own.
 * The stack's dashboard (infra/dashboard.ts) reads the same names.
 *
 * POWERTOOLS_METRICS_DISABLED=true (the tests' setting, vitest.config.ts)
 * writes nothing; it is read when the first metric is written.
 */
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { METRICS_NAMESPACE, SERVICE_NAME } from './config';
import { log } from './log';

type Unit = Parameters<Metrics['addMetric']>[1];

/** Each metric: its name in CloudWatch, its unit, and the dimensions it is recorded by (besides `service`). */
export const METRICS = {
  /** A change refused because the department would exceed a quota: one per quota exceeded. */
  quotaRefusals: { name: 'QuotaRefusals', unit: 'Count', dimensions: ['Quota'] },
  /** A user moved into or out of a department by a single-user operation (E2, E4). */
  userMoves: { name: 'UserMoves', unit: 'Count', dimensions: ['Operation'] },
  /** A bulk move (E3, E5) that committed, and the users it moved. */
  bulkMoves: { name: 'BulkMoves', unit: 'Count', dimensions: ['Operation'] },
  bulkMovedUsers: { name: 'BulkMovedUsers', unit: 'Count', dimensions: ['Operation'] },
  /** A SCIM request, by method and the status class of its answer (2xx, 4xx, 5xx). */
  scimRequests: { name: 'ScimRequests', unit: 'Count', dimensions: ['Method', 'Outcome'] },
  /** A report the worker finished: how long it took and how many CSV rows it wrote. */
  reportDuration: { name: 'ReportDuration', unit: 'Milliseconds', dimensions: ['Report'] },
  reportRows: { name: 'ReportRows', unit: 'Count', dimensions: ['Report'] },
  /** A report e-mail handed to SES, or one that could not be sent. */
  reportEmailsSent: { name: 'ReportEmailsSent', unit: 'Count', dimensions: [] },
  reportEmailsFailed: { name: 'ReportEmailsFailed', unit: 'Count', dimensions: [] },
  /** A webhook delivery attempt, by outcome (`delivered`: a 2xx; `failed`: anything else, a refused address included). */
  webhookAttempts: { name: 'WebhookAttempts', unit: 'Count', dimensions: ['Outcome'] },
  /** A webhook the service disabled after 24 hours of failed attempts. */
  webhooksDisabled: { name: 'WebhooksDisabled', unit: 'Count', dimensions: [] },
  /** A repeated Idempotency-Key answered with the stored answer, without running the operation again. */
  idempotentReplays: { name: 'IdempotentReplays', unit: 'Count', dimensions: [] },
  /** Audit entries the maintenance sweep placed in the change feed: their stream records were lost or kept failing. */
  feedStragglers: { name: 'FeedStragglers', unit: 'Count', dimensions: [] },
} as const satisfies Record<string, { name: string; unit: Unit; dimensions: readonly string[] }>;

type MetricKey = keyof typeof METRICS;
type DimensionsOf<K extends MetricKey> = Record<(typeof METRICS)[K]['dimensions'][number], string>;

interface Recorded {
  key: MetricKey;
  value: number;
  dimensions: Record<string, string>;
}

/** The metrics recorded since the invocation began. */
let pending: Recorded[] = [];
let instance: Metrics | undefined;

/** Records one value of a metric, written when the invocation ends. */
export function recordMetric<K extends MetricKey>(key: K, value: number, dimensions: DimensionsOf<K>): void {
  pending.push({ key, value, dimensions });
}

/**
 * Writes the recorded metrics: one EMF line per set of dimension values (an
 * EMF line's dimensions hold for every metric in it), then forgets them.
 * Powertools is loaded on the first metric, so an invocation that records
 * none (most reads) never evaluates it. A failure is logged, never thrown:
 * a metric must not turn an answer into an error.
 */
export async function publishMetrics(): Promise<void> {
  if (pending.length === 0) return;
  const recorded = pending;
  pending = [];
  try {
    if (!instance) {
      const { Metrics } = await import('@aws-lambda-powertools/metrics');
      instance = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
    }
    const metrics = instance;
    const lines = new Map<string, Recorded[]>();
    for (const metric of recorded) {
      const key = JSON.stringify(Object.entries(metric.dimensions).sort());
      lines.set(key, [...(lines.get(key) ?? []), metric]);
    }
    for (const line of lines.values()) {
      // addDimension, not addDimensions: the latter adds a second dimension set, so each value would count twice.
      for (const [name, value] of Object.entries(line[0].dimensions)) metrics.addDimension(name, value);
      for (const { key, value } of line) metrics.addMetric(METRICS[key].name, METRICS[key].unit, value);
      metrics.publishStoredMetrics();
    }
  } catch (error) {
    await log('error', 'Metrics could not be written', { error: error as Error, metrics: recorded.map((m) => METRICS[m.key].name) });
  }
}

/**
 * A handler whose metrics are written once per invocation, whichever way it
 * ends: answered, failed, or answered early by a middy `before` middleware (an
 * Idempotency-Key replay), where middy skips the `after` and `onError` stacks
 * that a metrics middleware would rely on. Every pipeline that records metrics
 * is wrapped in it: operation() and scimOperation() (lib/http/), and the
 * background functions' handlers.
 */
export function withMetrics<E, R>(handler: (event: E, context: Context) => Promise<R>): (event: E, context: Context) => Promise<R> {
  return async (event, context) => {
    try {
      return await handler(event, context);
    } finally {
      await publishMetrics();
    }
  };
}
