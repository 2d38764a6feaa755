/**
 * Alarms that page through one SNS topic. The service answers bad input with
 * 4xx and never with 5xx, so a single server error or crashed invocation is
 * already a bug worth a look; the thresholds are therefore 1.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

const PERIOD = Duration.minutes(5);

export interface ServiceAlarmsProps {
  api: HttpApi;
  /** Queues where failed background work lands: any message there needs a look. */
  deadLetterQueues?: Array<{ name: string; queue: IQueue }>;
}

export class ServiceAlarms extends Construct {
  /** Subscribe people or tools here; alarms send both ALARM and OK. */
  readonly topic: Topic;

  constructor(scope: Construct, id: string, { api, deadLetterQueues = [] }: ServiceAlarmsProps) {
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
    for (const { name, queue } of deadLetterQueues) {
      this.alarm(
        `${name}DeadLetters`,
        `${name} failed after its retries; the failed event waits in its dead-letter queue`,
        queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: Stats.MAXIMUM }),
      );
    }
  }

  private alarm(id: string, description: string, metric: IMetric): void {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No traffic means nothing failed.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
  }
}
