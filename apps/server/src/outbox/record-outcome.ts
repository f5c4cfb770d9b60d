import { databaseUnavailable } from '../errors';

/** The first wait before writing an outcome again, doubled up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;

/**
 * Writes a send's outcome until the database takes it (decision 0064). The provider has answered:
 * the answer is kept in memory and the write is tried again while the database cannot be reached
 * (a restart, a failover, a network cut), so a text or an e-mail that went out is recorded `sent`
 * instead of waiting for its lease to run out and going out a second time. Any other error is
 * thrown at once. Should the lease run out meanwhile, the claim that takes the row back marks it
 * in doubt and its channel asks the provider before sending it again.
 */
export async function recordOutcome<T>(write: () => Promise<T>, onRetry?: (error: unknown) => void): Promise<T> {
  for (let wait = RETRY_FIRST_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
    try {
      return await write();
    } catch (error) {
      if (!databaseUnavailable(error)) throw error;
      onRetry?.(error);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
