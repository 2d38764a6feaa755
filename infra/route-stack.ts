/**
 * The routes of one tag of the route table (Users, Departments, Groups, ...)
 * in a nested stack of their own: per operation its function (its own bundle,
 * its own role), the function's invoke permission, its integration and its
 * API routes. The root stack keeps what the routes share (table, bucket, API,
 * stage, authorizers, the route functions' log group) and hands each nested
 * stack what it names as parameters; CDK writes those and the root fills them.
 *
 * Why nested stacks, and not stacks of their own wired by exports: one
 * `cdk deploy` deploys and rolls back the whole service together, nothing is
 * exported (an export cannot change while another stack imports it), and each
 * template holds one concept's routes, far from CloudFormation's per-template
 * quotas (docs/deployment.md, test/infra/quotas.test.ts).
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { WEBHOOK_DELIVERY } from '../lib/background';
import type { Route, Tag } from '../lib/routes';
import { tableStatementsFor } from './access';
import type { ServiceApi } from './api';
import { readReportsStatement, sendMessageStatement } from './function-roles';
import { ServiceFunction } from './service-function';

export interface RouteStackProps {
  tag: Tag;
  /** The routes of the table under `tag`. */
  routes: readonly Route[];
  api: ServiceApi;
  /** The environment every route function reads (lib/config.ts). */
  environment: Record<string, string>;
  /** What only the console's sign-in page is told (lib/config.ts `consoleSignIn`). */
  signInEnvironment: Record<string, string>;
  /** The webhook delivery queue, for the routes that send to it. */
  webhookQueue: IQueue;
  table: ITable;
  reportsBucket: IBucket;
  /** The log group every route function writes to. */
  logGroup: ILogGroup;
  projectRoot: string;
}

/** The nested stack's construct id: the tag in PascalCase (`SCIM tokens` → `SCIMTokensRoutes`). */
export function routeStackId(tag: Tag): string {
  return `${tag
    .split(/\s+/)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('')}Routes`;
}

/** The route table's routes by tag, in the table's order. */
export function routesByTag(routes: readonly Route[]): Map<Tag, Route[]> {
  const byTag = new Map<Tag, Route[]>();
  for (const route of routes) byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), route]);
  return byTag;
}

export class RouteStack extends NestedStack {
  /** The function of each route, by operation name. */
  readonly functions = new Map<string, NodejsFunction>();
  readonly routes: readonly Route[];

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, { description: `Department and group administration API: the ${props.tag} routes` });
    this.routes = props.routes;
    const { api, environment, signInEnvironment, webhookQueue, table, reportsBucket, logGroup, projectRoot } = props;
    for (const route of props.routes) {
      const sendsToQueue = route.webhookQueue === 'send';
      const { function: handler } = new ServiceFunction(this, route.name, {
        handler: route.name,
        logGroup,
        description: `${route.label ? `${route.name} (${route.label})` : route.name}: ${route.method} ${route.path}`,
        tableStatements: tableStatementsFor(route),
        timeout: route.timeoutSeconds === undefined ? undefined : Duration.seconds(route.timeoutSeconds),
        projectRoot,
        environment: {
          ...environment,
          ...(route.consoleSignIn ? signInEnvironment : {}),
          ...(sendsToQueue ? { [WEBHOOK_DELIVERY.trigger.queue.urlVariable]: webhookQueue.queueUrl } : {}),
        },
        table,
      });
      if (route.reportsBucket === 'presign') handler.addToRolePolicy(readReportsStatement(reportsBucket));
      if (sendsToQueue) handler.addToRolePolicy(sendMessageStatement(webhookQueue));
      api.addRoute(route, handler, this);
      this.functions.set(route.name, handler);
    }
  }
}
