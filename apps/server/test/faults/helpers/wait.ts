export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 50 ms until it holds; fails after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Polls `GET /api/health` of the server at `baseUrl` until it answers 200 (a refused connection counts as not yet). */
export function untilHealthy(baseUrl: string, timeoutMs = 30_000): Promise<void> {
  const healthy = () =>
    fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
  return until(healthy, 'the health check to pass again', timeoutMs);
}

/** Waits until `count()` has stopped changing for `quietMs` (and is at least `atLeast`). */
export async function settled(
  count: () => number,
  what: string,
  options: { atLeast?: number; quietMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const quietMs = options.quietMs ?? 1500;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last = count();
  let since = Date.now();
  for (;;) {
    await sleep(100);
    const now = count();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (now >= (options.atLeast ?? 0) && Date.now() - since >= quietMs) {
      return now;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} to settle (at ${now})`);
  }
}
