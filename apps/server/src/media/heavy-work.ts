import { availableParallelism } from 'node:os';

/**
 * Runs `task` when a slot is free; at most `slots` run at once, the rest wait in order. A short
 * task (`soon`: a photo, a voice memo) waits ahead of long ones (a video), so twenty voice memos
 * are not held up behind five videos; a long task that has waited LONG_TASK_PATIENCE_MS goes next
 * whatever else is waiting, so a steady stream of photos never holds a video up for good.
 */
export interface WorkLimit {
  run<T>(task: () => Promise<T>, options?: { soon?: boolean }): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export const LONG_TASK_PATIENCE_MS = 10_000;

export function createWorkLimit(slots: number, now: () => number = () => performance.now()): WorkLimit {
  let active = 0;
  const soon: (() => void)[] = [];
  const later: { since: number; start: () => void }[] = [];
  const release = () => {
    active -= 1;
    const oldest = later[0];
    if (oldest && (soon.length === 0 || now() - oldest.since >= LONG_TASK_PATIENCE_MS)) {
      later.shift();
      oldest.start();
    } else {
      soon.shift()?.();
    }
  };
  return {
    async run(task, options = {}) {
      if (active >= slots) {
        await new Promise<void>((resolve) => {
          if (options.soon) soon.push(resolve);
          else later.push({ since: now(), start: resolve });
        });
      }
      active += 1;
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return soon.length + later.length;
    },
  };
}

/**
 * The one limit every heavy media conversion shares (photos, voice memos, videos): at most
 * one per core, so several texts arriving at once queue instead of exhausting memory and CPU.
 */
export const heavyWork: WorkLimit = createWorkLimit(Math.max(1, availableParallelism()));
