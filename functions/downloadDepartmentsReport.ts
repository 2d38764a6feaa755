import { operation } from '../lib/http/operation';
import { downloadReply } from '../lib/reports/download';
import { downloadReportQuery, reportIdParams } from '../lib/schemas/reports';

/** 303 to a 15-minute link to the departments report's CSV, or the link as JSON with `?redirect=false`; 409 `report-not-ready` before it is complete. */
export const handler = operation(
  'downloadDepartmentsReport',
  { params: reportIdParams, query: downloadReportQuery },
  async ({ params, query }) => downloadReply('departments', params.report_id, query.redirect),
);
