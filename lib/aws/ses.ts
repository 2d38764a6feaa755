import { SESClient } from '@aws-sdk/client-ses';
import { config } from '../config';

let client: SESClient | undefined;

/** The shared SES client, made on first use. */
export function ses(): SESClient {
  if (!client) {
    const { region, endpoints } = config();
    client = new SESClient({ region, endpoint: endpoints.ses });
  }
  return client;
}
