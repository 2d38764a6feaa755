import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

let documentClient: DynamoDBDocumentClient | undefined;

/** The shared DynamoDB document client, made on first use (cold start pays only when it is needed). */
export function db(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { region, endpoints } = config();
    const client = new DynamoDBClient({ region, endpoint: endpoints.dynamodb });
    documentClient = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  }
  return documentClient;
}

export function tableName(): string {
  return config().tableName;
}
