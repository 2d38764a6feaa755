import { SESClient } from '@aws-sdk/client-ses';
import { config } from '../config';
import { traced } from '../tracing';

let client: SESClient | undefined;

/** The shared SES client, made on first use. */
export function ses(): SESClient {
  if (!client) {
    const { region, endpoints } = config();
    client = traced(new SESClient({ region, endpoint: endpoints.ses }));
  }
  return client;
}
