export type WakeCause = 'inbound' | 'outbound' | 'email';
type Listener = (cause: WakeCause) => void;
const listeners = new Set<Listener>();

/**
 * Tells this process's message worker that rows are waiting (texts that came in, or texts to
 * send), so it does not wait for its next poll. Only a hint: rows queued inside a transaction
 * that has not committed yet, or by another process, are found by the poll.
 */
export function wakeMessageWorker(cause: WakeCause): void {
  for (const listener of listeners) listener(cause);
}

export function onWake(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
