import { S3Client } from '@aws-sdk/client-s3';
import { config } from '../config';
import { traced } from '../tracing';

let client: S3Client | undefined;

/** The shared S3 client, made on first use. Path-style addressing locally: s3rver has no virtual-host buckets. */
export function s3(): S3Client {
  if (!client) {
    const { region, endpoints } = config();
    client = traced(new S3Client({ region, endpoint: endpoints.s3, forcePathStyle: endpoints.s3 !== undefined }));
  }
  return client;
}
