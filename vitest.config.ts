import { defineConfig } from 'vitest/config';

/**
 * Two projects: `unit` needs nothing running (lib units, the CDK template,
 * the gateway with fake handlers); `integration` shares one set of local
 * services (DynamoDB Local, s3rver, SES stand-in) started by a global setup,
 * with a fresh table per test file.
 */
/**
 * Handlers log nothing during tests, and write no metrics (Powertools prints EMF lines whatever the log level;
 * test/support/function-output.ts turns them on for the file that reads them); the SDK's Node 20 notice is known
 * (Lambdas run Node 22).
 */
const env = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts', 'test/local/gateway.test.ts', 'test/local/queues.test.ts'],
          env,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'test/integration/**/*.test.ts',
            'test/http/**/*.test.ts',
            'test/console/**/*.test.ts',
            'test/local/services.test.ts',
            'test/local/functions.test.ts',
          ],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/table-per-file.ts'],
          env,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
