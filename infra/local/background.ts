/**
 * `npm start`'s (and the HTTP tests') stand-in for the stack's triggers: runs
 * every background function (lib/background.ts) from its bundle, in the
 * function host (functions.ts). A scheduled one runs its `handler` on a
 * shorter local interval, so repairs show up quickly on a laptop; a
 * stream-triggered one exports `pollLocally`, which finds its pending work in
 * the table, and runs that instead. A queue-triggered one is invoked from its
 * queue by a local event source mapping (queues.ts) as Lambda would, and its
 * `pollLocally` runs too, in place of the bus rule that feeds the queue on
 * AWS (it puts the change feed's new entries on the queue).
 */
import { backgroundFunctions, isQueueTriggered, type BackgroundFunction } from '../../lib/background';
import type { FunctionHost } from './functions';
import { startQueueMapping } from './queues';

export const LOCAL_SCHEDULE_MS = 10_000;

/** What an EventBridge schedule sends (the function reads none of it). */
const SCHEDULED_EVENT = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };

export interface BackgroundRunner {
  stop(): Promise<void>;
}

export interface BackgroundOptions {
  onError: (name: string, error: unknown) => void;
  /** False runs only the stream-triggered functions (tests call scheduled repairs themselves, at chosen times). */
  schedules?: boolean;
}

export function startBackgroundJobs(functions: FunctionHost, { onError, schedules = true }: BackgroundOptions): BackgroundRunner {
  const runs = new Set<Promise<void>>();
  let stopped = false;
  const jobs = backgroundFunctions.filter((job) => schedules || !('everyMinutes' in job.trigger));
  const loops = jobs.map((job: BackgroundFunction) => {
    const scheduled = 'everyMinutes' in job.trigger;
    const interval = 'everyMinutes' in job.trigger ? LOCAL_SCHEDULE_MS : job.trigger.localPollMs;
    let busy = false; // one run of a function at a time, as a reserved concurrency of 1 would give
    // What a poll hands its next one (`{ resume: … }`): kept here, since each sandbox of the function has its own memory.
    let pollEvent: unknown = {};
    return setInterval(() => {
      if (busy || stopped) return;
      busy = true;
      const run = functions
        .invoke(job.handler, scheduled ? SCHEDULED_EVENT : pollEvent, { method: scheduled ? 'handler' : 'pollLocally' })
        .then((answer) => {
          if (!scheduled && typeof answer === 'object' && answer !== null && 'resume' in answer) pollEvent = answer.resume;
        })
        .catch((error: unknown) => onError(job.name, error))
        .finally(() => {
          busy = false;
          runs.delete(run);
        });
      runs.add(run);
    }, interval);
  });
  const mappings = jobs
    .filter(isQueueTriggered)
    .map((job) => startQueueMapping(functions, job.handler, { onError: (error) => onError(job.name, error) }));
  return {
    async stop() {
      stopped = true;
      for (const loop of loops) clearInterval(loop);
      await Promise.all([...runs, ...mappings.map((mapping) => mapping.stop())]);
    },
  };
}
