/**
 * The service's state: the single table and the reports bucket. Both are
 * retained when the stack is deleted; losing them is never a deploy step.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { indexList, keyAttributes, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE, type KeyAttribute } from '../lib/db/table';

/**
 * Reports are fetched soon after they are made; after this they are gone. A day more than the 7 days an e-mailed
 * link works (lib/reports/email-link.ts), which start when the e-mail is sent, a little after the CSV is written.
 */
export const REPORT_LIFETIME = Duration.days(8);

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });
const cdkKey = (attribute: KeyAttribute) => ({
  name: attribute.name,
  type: attribute.type === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
});

/** The table with every index of lib/db/table.ts. */
export function createTable(scope: Construct, id: string): Table {
  const table = new Table(scope, id, {
    partitionKey: stringKey(PARTITION_KEY),
    sortKey: stringKey(SORT_KEY),
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    // Old and new images: a later change feeds EventBridge from this stream.
    stream: StreamViewType.NEW_AND_OLD_IMAGES,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of indexList) {
    const { partition, sort } = keyAttributes(index);
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: cdkKey(partition),
      ...(sort.length === 1 ? { sortKey: cdkKey(sort[0]) } : { sortKeys: sort.map(cdkKey) }),
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}

export function createReportsBucket(scope: Construct, id: string): Bucket {
  return new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    versioned: false,
    lifecycleRules: [
      {
        expiration: REPORT_LIFETIME,
        // Large reports upload in parts; a failed upload leaves parts that expiration never removes.
        abortIncompleteMultipartUploadAfter: Duration.days(1),
      },
    ],
    removalPolicy: RemovalPolicy.RETAIN,
  });
}
