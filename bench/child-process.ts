import { fork } from 'node:child_process';
import { once } from 'node:events';

/** A bench's helper process (a fake Twilio, an SMTP sink) and its IPC answers. */
export interface BenchChild<Ready> {
  ready: Ready;
  /** How many it took so far (its answer to `{ type: 'count' }`). */
  count: () => Promise<number>;
  /** Sends `ask` and resolves with the next message of type `answer`. */
  ask: <T>(ask: { type: string }, answer: string) => Promise<T>;
  /** Asks it to close; SIGKILL after 5 s. */
  close: () => Promise<void>;
}

/**
 * Forks `file` (TypeScript, through tsx) and waits for its `{ type: 'ready' }` message. Every
 * message goes to the oldest waiter for its type; counts are asked one at a time, so each answer
 * belongs to its question.
 */
export async function startBenchChild<Ready>(file: string): Promise<BenchChild<Ready>> {
  const child = fork(file, [], { execArgv: ['--import', 'tsx'] });
  const waiters = new Map<string, ((message: never) => void)[]>();
  child.on('message', (message: { type: string }) => waiters.get(message.type)?.shift()?.(message as never));
  const next = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      const list = waiters.get(type) ?? [];
      list.push(resolve as (message: never) => void);
      waiters.set(type, list);
    });
  const ready = await next<Ready>('ready');
  const ask = <T>(message: { type: string }, answer: string) => {
    const answered = next<T>(answer);
    child.send(message);
    return answered;
  };
  let counting = Promise.resolve(0);
  return {
    ready,
    ask,
    count: () => {
      counting = counting.then(async () => (await ask<{ count: number }>({ type: 'count' }, 'count')).count);
      return counting;
    },
    close: async () => {
      if (child.exitCode !== null) return;
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}
