import { availableParallelism } from 'node:os';

/** Runs `task` when a slot is free; at most `slots` run at once, the rest wait in order. */
export interface WorkLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createWorkLimit(slots: number): WorkLimit {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    active -= 1;
    queue.shift()?.();
  };
  return {
    async run(task) {
      if (active >= slots) await new Promise<void>((resolve) => queue.push(resolve));
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
      return queue.length;
    },
  };
}

/**
 * The one limit every heavy media conversion shares (photos now; audio and video later): at most
 * one per core, so several texts arriving at once queue instead of exhausting memory and CPU.
 */
export const heavyWork: WorkLimit = createWorkLimit(Math.max(1, availableParallelism()));
