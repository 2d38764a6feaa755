import { operation } from '../lib/http/operation';
import { reportDownload } from '../lib/reports/jobs';
import { downloadReportQuery, reportIdParams } from '../lib/schemas/reports';

/**
 * 303 to a 15-minute link to the groups report's CSV, or with `?redirect=false` the link as JSON (for clients
 * that repeat Authorization on a redirect, which S3 refuses); 409 `report-not-ready` before it is complete.
 */
export const handler = operation(
  'downloadGroupsReport',
  { params: reportIdParams, query: downloadReportQuery },
  async ({ params, query }) => {
    const download = await reportDownload('groups', params.report_id);
    return query.redirect === 'false' ? { body: download } : { status: 303, headers: { location: download.download_url } };
  },
);
