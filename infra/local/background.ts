/**
 * `npm start`'s stand-in for the stack's schedules: runs every background
 * function (lib/background.ts) from its own module, one run at a time, on a
 * shorter local interval so that repairs show up quickly on a laptop.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { backgroundFunctions } from '../../lib/background';

export const LOCAL_INTERVAL_MS = 10_000;

export interface BackgroundRunner {
  stop(): Promise<void>;
}

export function startBackgroundJobs(projectRoot: string, onError: (name: string, error: unknown) => void): BackgroundRunner {
  let running: Promise<void> = Promise.resolve();
  const timers = backgroundFunctions.map((job) => {
    const run = async () => {
      const module = (await import(pathToFileURL(join(projectRoot, 'functions', `${job.handler}.ts`)).href)) as {
        handler: () => Promise<void>;
      };
      await module.handler();
    };
    return setInterval(() => {
      running = running.then(run).catch((error: unknown) => onError(job.name, error));
    }, LOCAL_INTERVAL_MS);
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await running;
    },
  };
}
