import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` needs nothing running (lib units, the CDK template,
 * the gateway with fake handlers); `integration` shares one set of local
 * services (DynamoDB Local, s3rver, SES stand-in) started by a global setup,
 * with a fresh table per test file.
 */
/** Handlers log nothing during tests; the SDK's Node 20 notice is known (Lambdas run Node 22). */
const env = { POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

const MIGRATION_TESTS = 'test/integration/lists-migration.test.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts', 'test/local/gateway.test.ts'],
          env,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/http/**/*.test.ts', 'test/local/services.test.ts'],
          exclude: [MIGRATION_TESTS],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/table-per-file.ts'],
          env,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Adds indexes to existing tables, which DynamoDB Local may leave CREATING for minutes while other tables
        // are busy (seen: not backfilling, never ACTIVE): run after the other files, on stand-ins of its own.
        test: {
          name: 'migration',
          include: [MIGRATION_TESTS],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/table-per-file.ts'],
          env,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
