import { operation } from '../lib/http/operation';
import { downloadReply } from '../lib/reports/download';
import { downloadReportQuery, reportIdParams } from '../lib/schemas/reports';

/** 303 to a 15-minute link to the groups report's CSV, or the link as JSON with `?redirect=false`; 409 `report-not-ready` before it is complete. */
export const handler = operation(
  'downloadGroupsReport',
  { params: reportIdParams, query: downloadReportQuery },
  async ({ params, query }) => downloadReply('groups', params.report_id, query.redirect),
);
