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
  /** Run on a schedule, every this many minutes (at least one, EventBridge's finest). */
  everyMinutes: number;
}

export const backgroundFunctions: readonly BackgroundFunction[] = [
  {
    name: 'Maintenance',
    handler: 'maintenance',
    summary: 'Finishes bulk moves whose driver died and clears what deleted resources leave behind',
    everyMinutes: 1,
  },
];
