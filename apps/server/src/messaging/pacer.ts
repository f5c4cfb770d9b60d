/**
 * Spaces sends from one sender to `ratePerSecond` (a US long code: 1/s, toll-free 3, short code
 * 100+). Wall-clock time on purpose: carriers count real seconds. Per process; see decision 0011.
 */
export function createPacer(ratePerSecond: number, now: () => number = () => performance.now()) {
  const nextFree = new Map<string, number>();
  return {
    /** Resolves when `sender` may send its next text, or at once when `signal` aborts (stopping). */
    async wait(sender: string, signal?: AbortSignal): Promise<void> {
      if (ratePerSecond <= 0 || signal?.aborted) return;
      const interval = 1000 / ratePerSecond;
      const current = now();
      const slot = Math.max(current, nextFree.get(sender) ?? 0);
      nextFree.set(sender, slot + interval);
      if (slot <= current) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, slot - current);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;
