/**
 * Runs before each integration test file: points the service at the shared
 * local services and at a table of its own, so files never see each other's
 * data and can run in parallel.
 */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createTable } from '../../infra/local/services';

const services = inject('services');
Object.assign(process.env, services.env);
process.env.TABLE_NAME = `test-${randomUUID()}`;
await createTable(services.endpoints.dynamodb, process.env.TABLE_NAME);
