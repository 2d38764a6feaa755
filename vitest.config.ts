import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` needs nothing running (lib units, the CDK template,
 * the gateway with fake handlers); `integration` shares one set of local
 * services (DynamoDB Local, s3rver, SES stand-in) started by a global setup,
 * with a fresh table per test file.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts', 'test/local/gateway.test.ts'],
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/http/**/*.test.ts', 'test/local/services.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/table-per-file.ts'],
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
