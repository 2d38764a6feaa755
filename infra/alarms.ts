/**
 * Alarms that page through one SNS topic. The service answers bad input with
 * 4xx and never with 5xx, so a single server error or crashed invocation is
 * already a bug worth a look; the thresholds are therefore 1.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../lib/config';
import { businessMetric } from './dashboard';

const PERIOD = Duration.minutes(5);

export interface ServiceAlarmsProps {
  api: HttpApi;
  /** Queues where failed background work lands: any message there needs a look. */
  deadLetterQueues?: Array<{ name: string; queue: IQueue }>;
  /**
   * Background functions whose failures get an alarm of their own: a crash or
   * timeout, or an error they handled and logged (a report job that ended
   * `failed` is not a Lambda error, yet someone should look at it).
   */
  workers?: Array<{ name: string; function: LambdaFunction }>;
  /** The table stream's reader: how far behind the stream it runs is how late changes reach the feed. */
  streamReader?: LambdaFunction;
}

/** How far behind the table's stream the StreamRouter may run before it pages: the contract's 10 s, thrice. */
const STREAM_LAG_MS = 30_000;

/** Powertools logs JSON; a line at level ERROR is a failure the function handled (lib/log.ts). */
const LOGGED_ERROR = FilterPattern.stringValue('$.level', '=', 'ERROR');

export class ServiceAlarms extends Construct {
  /** Subscribe people or tools here; alarms send both ALARM and OK. */
  readonly topic: Topic;
  /** Every alarm, for the dashboard's alarm widget. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { api, deadLetterQueues = [], workers = [], streamReader }: ServiceAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Department admin API alarms', enforceSSL: true });

    // HTTP APIs publish no throttle metric, and an alarm's metric math may
    // combine at most 10 metrics (fewer than there are functions), so the
    // Lambda alarms use the account-wide AWS/Lambda metrics (no dimensions).
    // They assume the account runs this service alone.
    this.alarm('ApiServerErrors', 'The API answered with a 5xx', api.metricServerError({ period: PERIOD, statistic: Stats.SUM }));
    this.alarm(
      'LambdaErrors',
      'A Lambda invocation failed (crash or timeout)',
      LambdaFunction.metricAllErrors({ period: PERIOD, statistic: Stats.SUM }),
    );
    this.alarm(
      'LambdaThrottles',
      'Lambda throttled an invocation (concurrency exhausted)',
      LambdaFunction.metricAllThrottles({ period: PERIOD, statistic: Stats.SUM }),
    );
    if (streamReader) {
      this.alarm(
        'ChangeFeedLag',
        `The StreamRouter runs more than ${STREAM_LAG_MS / 1000} s behind the table's stream: changes reach the feed and the bus late`,
        streamReader.metric('IteratorAge', { period: PERIOD, statistic: Stats.MAXIMUM }),
        STREAM_LAG_MS,
      );
    }
    this.alarm(
      'FeedStragglers',
      "The maintenance sweep appended audit entries to the change feed that the table's stream did not (lib/changes/sequencer.ts)",
      businessMetric('feedStragglers'),
    );
    for (const { name, function: worker } of workers) {
      const loggedErrors = new MetricFilter(this, `${name}LoggedErrors`, {
        logGroup: worker.logGroup,
        filterPattern: LOGGED_ERROR,
        metricNamespace: METRICS_NAMESPACE,
        metricName: `${name}LoggedErrors`,
        metricValue: '1',
      }).metric({ period: PERIOD, statistic: Stats.SUM });
      this.alarm(
        `${name}Failures`,
        `${name} failed: an invocation crashed or timed out, or it logged an error (e.g. a report job that ended failed)`,
        new MathExpression({
          expression: 'FILL(crashes, 0) + FILL(logged, 0)',
          usingMetrics: { crashes: worker.metricErrors({ period: PERIOD, statistic: Stats.SUM }), logged: loggedErrors },
          period: PERIOD,
          label: `${name} failures`,
        }),
      );
    }
    for (const { name, queue } of deadLetterQueues) {
      this.alarm(
        `${name}DeadLetters`,
        `${name} failed after its retries; the failed event waits in its dead-letter queue`,
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM }),
      );
    }
  }

  private alarm(id: string, description: string, metric: IMetric, threshold = 1): void {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No traffic means nothing failed.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.alarms.push(alarm);
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}
