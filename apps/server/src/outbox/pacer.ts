import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { senderPaces } from '../db/schema';

/**
 * A process reserves a sender's next slots only once its last slot is at most this far ahead. It
 * bounds what a stopping process leaves unused (its reserved slots pass idle), and lets the
 * processes sending for one sender take turns instead of blocks of texts.
 */
const RESERVE_AHEAD_MS = 1000;

export interface Pacer {
  /**
   * Resolves when `sender` may send its next text, or at once when `signal` aborts (stopping).
   * `segments` is what carriers count for the text (smsSegments; 1 by default): a 3-segment text
   * takes 3 of the sender's slots, so the next text waits 3 intervals. `awaited`: someone waits
   * for this text (a code, an answer): it gets the next slots before texts of bulk (decision 0051).
   */
  wait(sender: string, signal?: AbortSignal, segments?: number, awaited?: boolean): Promise<void>;
}

/**
 * Reserves `count` consecutive time slots of `sender`, `1 / ratePerSecond` apart, in one statement
 * on the `sender_paces` row (decision 0017): the first slot is the sender's next free moment, or
 * now when that has passed (an idle sender saves up no burst), and the next free moment moves on
 * by `count` intervals. The row lock orders processes reserving at the same moment. Answers how
 * many milliseconds after the database's now the first slot comes (0 or more).
 *
 * Wall-clock time on purpose (carriers count real seconds): the database's `clock_timestamp()`,
 * one clock for every process. `at` stands in for it in tests of the arithmetic.
 */
export async function reserveSlots(db: Db, input: { sender: string; count: number; ratePerSecond: number; at?: Date }): Promise<number> {
  const now = input.at ? sql`${input.at.toISOString()}::timestamptz` : sql`clock_timestamp()`;
  const span = sql`make_interval(secs => ${input.count}::float8 / ${input.ratePerSecond}::float8)`;
  const result = await db.execute(sql`
    with clock as (select ${now} as now)
    insert into ${senderPaces} as p (sender, next_free_at)
    select ${input.sender}, clock.now + ${span} from clock
    on conflict (sender) do update set next_free_at = greatest(p.next_free_at, (select now from clock)) + ${span}
    returning extract(epoch from p.next_free_at - ${span} - (select now from clock))::float8 * 1000 as wait_ms`);
  const [row] = (result as { rows: { wait_ms: number }[] }).rows;
  return Math.max(0, Number(row?.wait_ms ?? 0));
}

interface Waiter {
  /** Someone waits for its text: it goes before every bulk text waiting here. */
  awaited: boolean;
  /** Its place in the order texts asked: slots go out in this order, awaited texts first. */
  asked: number;
  /** How many consecutive slots it takes (its SMS segments). */
  weight: number;
  /** Gives the waiter its slot (a time on `now`'s clock): it resolves then. */
  at: (slot: number) => void;
  fail: (error: unknown) => void;
  settled: () => boolean;
}

/** Awaited texts first, then in the order they asked. */
const slotOrder = (x: Waiter, y: Waiter) => Number(y.awaited) - Number(x.awaited) || x.asked - y.asked;

interface SenderQueue {
  /** Waiters without a slot yet, in the order they asked. */
  waiting: Waiter[];
  /** This process's last slot of the sender, on `now`'s clock. */
  lastSlot: number;
  /** A reservation is under way, or `timer` will start the next one. */
  busy: boolean;
  timer: NodeJS.Timeout | undefined;
  /** A pump is due at the end of this turn. */
  scheduled: boolean;
}

/**
 * Spaces sends from one sender to `ratePerSecond` segments a second (a US long code: 1/s,
 * toll-free 3, short code 100+) across every process on the database (decisions 0017 and 0039). Texts that wait for one sender at
 * the same time share one reservation (reserveSlots), up to a second's worth; the next comes when
 * this process's last slot is a second or less away. Slots go to waiters in the order they asked.
 * Rate 0: no pacing, and no query.
 */
export function createPacer(db: Db, ratePerSecond: number, now: () => number = () => performance.now()): Pacer {
  if (!(ratePerSecond > 0)) return { wait: () => Promise.resolve() };
  const intervalMs = 1000 / ratePerSecond;
  const perReservation = Math.max(1, Math.ceil((ratePerSecond * RESERVE_AHEAD_MS) / 1000));
  // A text whose slot went by while this process was busy (its timer fired this late) takes a new
  // slot instead of going out with the texts of the slots after it: a busy moment never turns
  // into a burst, here or next to another process's slots.
  const tooLateMs = Math.max(intervalMs / 2, 20);
  const senders = new Map<string, SenderQueue>();
  let asked = 0;

  const pump = (sender: string, queue: SenderQueue) => {
    if (queue.busy) return;
    queue.waiting = queue.waiting.filter((w) => !w.settled());
    if (queue.waiting.length === 0) return;
    queue.busy = true;
    const early = queue.lastSlot - RESERVE_AHEAD_MS - now();
    if (early > 0) {
      queue.timer = setTimeout(() => {
        queue.timer = undefined;
        queue.busy = false;
        pump(sender, queue);
      }, early);
      return;
    }
    // Up to a second's worth of slots, counted in segments; a long text alone may take more.
    let take = 0;
    let slots = 0;
    while (take < queue.waiting.length && (take === 0 || slots + (queue.waiting[take]?.weight ?? 1) <= perReservation)) {
      slots += queue.waiting[take]?.weight ?? 1;
      take++;
    }
    const batch = queue.waiting.splice(0, take);
    reserveSlots(db, { sender, count: slots, ratePerSecond })
      .then(
        (waitMs) => {
          // Measured from when the answer arrived: a slot is never early, at worst late by the trip back.
          const first = now() + waitMs;
          let offset = 0;
          for (const waiter of batch) {
            queue.lastSlot = first + offset * intervalMs;
            waiter.at(queue.lastSlot);
            offset += waiter.weight;
          }
        },
        (error: unknown) => batch.forEach((waiter) => waiter.fail(error)),
      )
      .finally(() => {
        queue.busy = false;
        pump(sender, queue);
      });
  };

  return {
    wait(sender, signal, segments = 1, awaited = false) {
      if (signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        let timer: NodeJS.Timeout | undefined;
        const settle = (error?: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (error === undefined) resolve();
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever was thrown, as an Error, as Node would print it
          else reject(error instanceof Error ? error : new Error(String(error)));
        };
        const queue = senders.get(sender) ?? { waiting: [], lastSlot: -Infinity, busy: false, timer: undefined, scheduled: false };
        senders.set(sender, queue);
        const onAbort = () => {
          settle();
          // Nobody left to wait for the next reservation: no timer outlives the stop.
          if (queue.timer && queue.waiting.every((w) => w.settled())) {
            clearTimeout(queue.timer);
            queue.timer = undefined;
            queue.busy = false;
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const waiter: Waiter = {
          awaited,
          asked: ++asked,
          weight: Math.max(1, Math.ceil(segments)),
          at: (slot) => {
            if (settled) return;
            timer = setTimeout(
              () => {
                if (now() - slot <= tooLateMs) return settle();
                queue.waiting.push(waiter);
                queue.waiting.sort(slotOrder);
                pump(sender, queue);
              },
              Math.max(0, slot - now()),
            );
          },
          fail: (error) => settle(error),
          settled: () => settled,
        };
        queue.waiting.push(waiter);
        if (awaited) queue.waiting.sort(slotOrder);
        // Texts that ask in this same turn join one reservation.
        if (!queue.busy && !queue.scheduled) {
          queue.scheduled = true;
          queueMicrotask(() => {
            queue.scheduled = false;
            pump(sender, queue);
          });
        }
      });
    },
  };
}
