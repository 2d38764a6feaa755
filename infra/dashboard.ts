/**
 * The service's CloudWatch dashboard: the alarms' states, the API's traffic,
 * errors and latency, the table's consumed capacity and throttles (its
 * indexes included), the functions' errors, throttles and concurrency, and
 * the business metrics of lib/metrics.ts, read by the names and dimensions
 * that module gives them, and the webhook delivery queue.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, SERVICE_NAME } from '../lib/config';
import { METRICS } from '../lib/metrics';

const PERIOD = Duration.minutes(5);
const WIDTH = 8;
const HEIGHT = 6;

export interface ServiceDashboardProps {
  api: HttpApi;
  table: ITable;
  alarms: IAlarm[];
  /** Queues that drive a background function (webhook deliveries): how late their oldest message is, and dead letters. */
  queues?: Array<{ name: string; queue: IQueue; deadLetterQueue: IQueue }>;
}

/**
 * A business metric: one line, or, when it has dimensions of its own, a
 * SEARCH that draws one line per value (each quota, each method and outcome)
 * without listing the values here.
 */
export function businessMetric(key: keyof typeof METRICS, statistic: string = Stats.SUM, label?: string): IMetric {
  const { name, dimensions } = METRICS[key];
  if (dimensions.length === 0) {
    return new Metric({
      namespace: METRICS_NAMESPACE,
      metricName: name,
      dimensionsMap: { service: SERVICE_NAME },
      statistic,
      period: PERIOD,
      label,
    });
  }
  const schema = [METRICS_NAMESPACE, 'service', ...dimensions].join(',');
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${name}" service="${SERVICE_NAME}"', '${statistic}', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    period: PERIOD,
    label,
  });
}

/** The table's metric `name` on each of its indexes, one line per index. */
function perIndex(table: ITable, names: string[]): IMetric {
  const metricNames = names.map((name) => `"${name}"`).join(' OR ');
  return new MathExpression({
    expression: `SEARCH('{AWS/DynamoDB,TableName,GlobalSecondaryIndexName} TableName="${table.tableName}" MetricName=(${metricNames})', 'Sum', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    period: PERIOD,
  });
}

export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, { api, table, alarms, queues = [] }: ServiceDashboardProps) {
    super(scope, id);
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) =>
      new GraphWidget({ title, left, right, width: WIDTH, height: HEIGHT, period: PERIOD });
    const sum = { period: PERIOD, statistic: Stats.SUM };
    const tableMetric = (metricName: string, label: string) => table.metric(metricName, { ...sum, label });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Department admin API\nAlarms, API, table, functions, then the business metrics. What to do on each alarm: docs/operations.md "Runbook".',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 3 }));
    this.dashboard.addWidgets(
      graph('API requests', [api.metricCount({ ...sum, label: 'requests' })]),
      graph('API errors', [api.metricClientError({ ...sum, label: '4xx' }), api.metricServerError({ ...sum, label: '5xx' })]),
      graph('API latency (ms)', [
        api.metricLatency({ period: PERIOD, statistic: Stats.p(50), label: 'p50' }),
        api.metricLatency({ period: PERIOD, statistic: Stats.p(99), label: 'p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Table consumed capacity (units)',
        [tableMetric('ConsumedReadCapacityUnits', 'read'), tableMetric('ConsumedWriteCapacityUnits', 'write')],
        [perIndex(table, ['ConsumedReadCapacityUnits', 'ConsumedWriteCapacityUnits'])],
      ),
      graph(
        'Table throttles',
        [tableMetric('ReadThrottleEvents', 'read throttles'), tableMetric('WriteThrottleEvents', 'write throttles')],
        [perIndex(table, ['ReadThrottleEvents', 'WriteThrottleEvents'])],
      ),
      // Account-wide, as the alarms (infra/alarms.ts): the account runs this service alone.
      graph(
        'Functions',
        [LambdaFunction.metricAllErrors({ ...sum, label: 'errors' }), LambdaFunction.metricAllThrottles({ ...sum, label: 'throttles' })],
        [LambdaFunction.metricAllConcurrentExecutions({ period: PERIOD, statistic: Stats.MAXIMUM, label: 'concurrency (max)' })],
      ),
    );
    this.dashboard.addWidgets(
      graph('Quota refusals, by quota', [businessMetric('quotaRefusals')]),
      graph('Department moves', [businessMetric('userMoves'), businessMetric('bulkMoves')], [businessMetric('bulkMovedUsers')]),
      graph('SCIM requests, by method and outcome', [businessMetric('scimRequests')]),
    );
    this.dashboard.addWidgets(
      graph('Report duration (ms)', [
        businessMetric('reportDuration', Stats.p(50), "${PROP('Dim.Report')} p50"),
        businessMetric('reportDuration', Stats.MAXIMUM, "${PROP('Dim.Report')} max"),
      ]),
      graph(
        'Report rows and e-mails',
        [businessMetric('reportRows')],
        [businessMetric('reportEmailsSent'), businessMetric('reportEmailsFailed')],
      ),
      graph('Idempotent replays', [businessMetric('idempotentReplays')]),
      graph('Audit entries the stream left to the maintenance sweep (change feed)', [businessMetric('feedStragglers')]),
    );
    // Webhook delivery: attempts by outcome, and its queue, where a message older than its delay and one batch means
    // the function falls behind (or fails), and dead letters need a look.
    this.dashboard.addWidgets(
      graph('Webhook attempts, by outcome', [businessMetric('webhookAttempts')], [businessMetric('webhooksDisabled')]),
      ...queues.map(({ name, queue, deadLetterQueue }) =>
        graph(
          `${name} queue`,
          [queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: Stats.MAXIMUM, label: 'age of oldest message (s)' })],
          [
            deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM, label: 'dead letters' }),
            queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM, label: 'waiting' }),
          ],
        ),
      ),
    );
  }
}
