import { operation } from '../lib/http/operation';
import { emailedReportLocation } from '../lib/reports/email-link';
import { emailDownloadQuery, reportIdParams } from '../lib/schemas/reports';

/**
 * The report e-mail's link (no Authorization: a mail reader has none): 303 to a pre-signed URL of the CSV
 * of a few minutes while the link's secret is right and unexpired; 404 otherwise.
 */
export const handler = operation(
  'downloadEmailedReport',
  { params: reportIdParams, query: emailDownloadQuery },
  async ({ params, query }) => ({
    status: 303,
    headers: { location: await emailedReportLocation(params.report_id, query.token) },
  }),
);
