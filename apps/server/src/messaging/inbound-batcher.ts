import type { DbOrTx } from '../db/client';
import { AppError } from '../errors';
import { inboundRow, insertInbound, type InboundParams, type InboundRow } from './ingest-inbound';

export interface InboundBatcherOptions {
  /**
   * Statements in flight at once (default 1). PGlite runs one at a time anyway, and one makes
   * its batches largest. On PostgreSQL a few overlap, so a batch need not wait for the previous
   * commit's WAL flush (bench/webhook-ingest on 2 cores: 3 stored the most per second, with the
   * lowest p99; 1 made the largest batches but waited on each commit).
   */
  maxInFlight?: number;
  /** The most rows in one statement. */
  maxBatch?: number;
  /**
   * How long a statement may take before its requests are answered 503 and the next statement
   * starts (default 10 s, within Twilio's 15 s). Its rows may still be committed later: Twilio's
   * retry then finds them, and stores nothing twice.
   */
  timeoutMs?: number;
}

export interface InboundBatcher {
  /**
   * Stores one inbound text (once per MessageSid) and resolves when its row is committed, or
   * rejects if it could not be stored: the caller must not answer Twilio 2xx before this resolves.
   */
  ingest: (params: InboundParams, now: Date) => Promise<{ id: number | null; stored: boolean }>;
  /** Resolves when every text handed in so far has been stored or refused. */
  drain: () => Promise<void>;
}

interface Waiting {
  row: InboundRow;
  resolve: (result: { id: number | null; stored: boolean }) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the Twilio webhook. Texts that arrive while `maxInFlight` statements are
 * running wait (no timer: only while the database is busy anyway) and are then stored together
 * in one multi-row INSERT ... ON CONFLICT (provider_message_id) DO NOTHING: one commit and one
 * WAL flush for all of them instead of one each. Every request is still answered only after
 * its own row is committed. A batch that fails because of one row's content (a data error) is
 * stored row by row, so that row's request fails alone; any other failure (the database is
 * unreachable) fails every request of the batch, and Twilio tries them again later. A statement
 * that hangs fails its requests after timeoutMs, and the next one goes ahead.
 */
export function createInboundBatcher(db: DbOrTx, options: InboundBatcherOptions = {}): InboundBatcher {
  const maxInFlight = options.maxInFlight ?? 1;
  const maxBatch = options.maxBatch ?? 200;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;
  let idle: { promise: Promise<void>; resolve: () => void } | undefined;

  function schedule() {
    if (scheduled || inFlight >= maxInFlight || waiting.length === 0) return;
    scheduled = true;
    // Texts whose requests were read in the same turn of the event loop go in one statement.
    setImmediate(() => {
      scheduled = false;
      while (inFlight < maxInFlight && waiting.length > 0) {
        const batch = waiting.slice(0, maxBatch);
        waiting = waiting.slice(batch.length);
        inFlight += 1;
        void store(batch).finally(() => {
          inFlight -= 1;
          if (waiting.length > 0) schedule();
          else if (inFlight === 0 && idle) {
            idle.resolve();
            idle = undefined;
          }
        });
      }
    });
  }

  /** Settles every request of the batch, within timeoutMs. */
  async function store(batch: Waiting[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        // A settled request keeps its answer: only those still waiting get the 503.
        const error = new AppError('unavailable', 'The text could not be stored in time. Please send it again.');
        for (const w of batch) w.reject(error);
        resolve();
      }, timeoutMs);
    });
    await Promise.race([insertBatch(batch), late]);
    clearTimeout(timer);
  }

  async function insertBatch(batch: Waiting[]): Promise<void> {
    try {
      settle(
        batch,
        await insertInbound(
          db,
          batch.map((w) => w.row),
        ),
      );
    } catch (error) {
      if (batch.length === 1 || !causedByContent(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // One text the database refuses must not take the others with it.
      for (const w of batch) {
        try {
          settle([w], await insertInbound(db, [w.row]));
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }

  /** Answers each request: the first copy of a sid that this statement stored gets the new id. */
  function settle(batch: Waiting[], stored: Map<string, number>) {
    for (const w of batch) {
      const id = stored.get(w.row.sid);
      if (id === undefined) {
        w.resolve({ id: null, stored: false });
      } else {
        stored.delete(w.row.sid);
        w.resolve({ id, stored: true });
      }
    }
  }

  return {
    ingest(params, now) {
      const row = inboundRow(params, now);
      return new Promise((resolve, reject) => {
        waiting.push({ row, resolve, reject });
        schedule();
      });
    },
    drain() {
      if (inFlight === 0 && waiting.length === 0 && !scheduled) return Promise.resolve();
      if (!idle) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        idle = { promise, resolve };
      }
      return idle.promise;
    },
  };
}

/**
 * True when the database refused the statement for what is in it (SQLSTATE class 22, data
 * exception, e.g. a NUL character; 23, integrity; 54, a value too large), not because it could
 * not run it at all.
 */
function causedByContent(error: unknown): boolean {
  let e: unknown = error;
  // drizzle wraps the driver's error, with the original as `cause`.
  for (let depth = 0; depth < 4 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return /^(22|23|54)/.test(code);
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
