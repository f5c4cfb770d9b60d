type Listener = () => void;
const listeners = new Set<Listener>();
let lastArrival = -Infinity;

/**
 * Tells this process's message worker that rows are waiting, so it does not wait for its next
 * poll. Only a hint: rows queued inside a transaction that has not committed yet, or by another
 * process, are found by the poll.
 */
export function wakeMessageWorker(cause: 'inbound' | 'outbound'): void {
  // Only texts from outside count as arrivals: the worker's own replies must not slow it down.
  if (cause === 'inbound') lastArrival = performance.now();
  for (const listener of listeners) listener();
}

export function onWake(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while texts keep arriving (one came in the last `withinMs`): the worker then lets them go first. */
export function textsArriving(withinMs = 100): boolean {
  return performance.now() - lastArrival < withinMs;
}
