/**
 * The functions that run without a route: the only list of them. The CDK
 * stack makes one Lambda function per entry with its trigger, and `npm start`
 * runs the same modules in the background. Like routes.ts, this module must
 * stay free of runtime dependencies.
 */

export interface BackgroundFunction {
  /** Logical name; also the construct id in the stack. */
  name: string;
  /** Module name under `functions/`. */
  handler: string;
  summary: string;
  trigger:
    | /** Run on a schedule, every this many minutes (at least one, EventBridge's finest). */
      {
        everyMinutes: number;
      } /** Run for table items that match (the table's stream, filtered); locally the module's `pollLocally` runs instead. */
    | { tableItems: Record<string, string>; localPollMs: number };
  /** What it may do beyond the table. */
  reportsBucket?: 'write';
  sendsEmail?: boolean;
  timeoutSeconds?: number;
}

export const backgroundFunctions: readonly BackgroundFunction[] = [
  {
    name: 'Maintenance',
    handler: 'maintenance',
    summary: 'Finishes bulk moves and group changes whose driver died, repairs stalled reports, clears what deleted groups leave behind',
    trigger: { everyMinutes: 1 },
    // Finishing a bulk move or a group change of many users can outlast a request's 10 s.
    timeoutSeconds: 60,
  },
  {
    name: 'ReportWorker',
    handler: 'reportWorker',
    summary: 'Writes report CSVs to S3 and e-mails them',
    trigger: { tableItems: { type: 'report', status: 'pending' }, localPollMs: 250 },
    reportsBucket: 'write',
    sendsEmail: true,
    // Matches WORKER_TIMEOUT_SECONDS in lib/reports/jobs.ts, whose lease assumes it.
    timeoutSeconds: 300,
  },
  {
    name: 'RuleWorker',
    handler: 'ruleWorker',
    summary:
      "Keeps rule groups' members: applies a rule when it changes, and follows every change of a user's department, role or activation",
    trigger: { tableItems: { type: 'rule-work' }, localPollMs: 200 },
    // Applying a rule to 10,000 users writes for tens of seconds on a cold table.
    timeoutSeconds: 120,
  },
];
