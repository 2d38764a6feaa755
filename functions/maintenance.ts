import { runMaintenance } from '../lib/maintenance';
import { log } from '../lib/log';
import { recordMetric, withMetrics } from '../lib/metrics';

/** Scheduled: finishes interrupted work (see lib/maintenance.ts). A throw makes EventBridge retry, then dead-letter. */
export const handler = withMetrics(async (): Promise<void> => {
  const report = await runMaintenance();
  if (report.feed_stragglers > 0) recordMetric('feedStragglers', report.feed_stragglers, {});
  // Most runs find nothing to do; only a repair is worth a line in the log.
  if (Object.values(report).some((count) => count > 0)) await log('info', 'maintenance repaired interrupted work', { ...report });
});
