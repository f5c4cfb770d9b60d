import { sql } from 'drizzle-orm';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../../../db/client';
import { recordset } from '../../../db/recordset';
import { loops, updates } from '../../../db/schema';
import type { MessageRow, MessagingContext } from '../../../messaging/context';
import { isSimulatorAddress } from '../../../messaging/simulator';
import { decideInbound, type Outcome } from '../decide-inbound';
import { inboundText, type InboundSettings } from '../inbound-text';
import { NO_MEDIA, settleShare } from '../settle-share';
import type { SenderFacts } from '../sender-facts';
import { answer } from './acts/answer';
import { button, buttonRecord } from './acts/button';
import { consent } from './acts/consent';
import { erase } from './acts/erase';
import { eraseAsk } from './acts/erase-ask';
import { heldForYes } from './acts/held-for-yes';
import { nowhere, nowhereRecord } from './acts/nowhere';
import { optIn } from './acts/opt-in';
import { optOut } from './acts/opt-out';
import { optedOut } from './acts/opted-out';
import { reaction } from './acts/reaction';
import { setPin } from './acts/set-pin';
import { share, shareRecord } from './acts/share';
import { unclear } from './acts/unclear';
import type { Act, InboundMessage } from './inbound-message';
import { recordOutcomes, type OutcomeRecord } from './record-outcomes';

/** One act per kind of outcome (acts/*). */
const ACTS: { [K in Outcome['kind']]: Act<K> } = {
  opt_out: optOut,
  opt_in: optIn,
  answer,
  reaction,
  held_for_yes: heldForYes,
  unclear,
  consent,
  opted_out: optedOut,
  button,
  nowhere,
  erase_ask: eraseAsk,
  erase,
  set_pin: setPin,
  share,
};

/**
 * Does what decideInbound said one message does, whichever channel brought it: the outcome's act
 * writes what it changes, and recordOutcomes ends the message and answers it by its channel. Safe
 * to run again for the same message: updates are unique per (message, Loop), answers per message.
 */
export function applyOutcome(ctx: MessagingContext, message: InboundMessage, outcome: Outcome): Promise<void> {
  return (ACTS[outcome.kind] as Act<Outcome['kind']>)(ctx, message, outcome);
}

/**
 * A fast text: one the worker ends on the fast path, a batch at a time (applyOutcomes), because
 * its outcome needs no writes but the updates, the row and the reply: it goes to the sender's
 * Loops with no photo or other attachment, or goes nowhere, or is a button tap.
 */
export interface FastText {
  record: OutcomeRecord;
  /** One update per Loop, with these words. */
  loopIds: number[];
  content: string;
}

/**
 * A text decided (decideInbound) for the batch: a fast text, or the outcome applyOutcome is to
 * apply on its own (the text is decided once), or null when it was not decided here: not from the
 * Phone Simulator (its viewer narrows the facts), not without a phone or facts.
 */
export type PlannedText = { fast: FastText } | { fast: null; outcome: Outcome | null };

export function planText(row: MessageRow, facts: SenderFacts | undefined, settings: InboundSettings): PlannedText {
  const phone = toE164(row.fromAddress);
  if (!facts || !phone || isSimulatorAddress(row.toAddress)) return { fast: null, outcome: null };
  const outcome = decideInbound(inboundText(row, settings), facts);
  const message = { row, phone, userId: facts.user?.id ?? null };
  const fast = (record: OutcomeRecord, loopIds: number[] = [], content = '') => ({ fast: { record, loopIds, content } });
  switch (outcome.kind) {
    case 'button':
      return fast(buttonRecord(message));
    case 'nowhere':
      return fast(nowhereRecord(message, outcome));
    case 'share': {
      if (outcome.withMedia) break;
      const settled = settleShare(outcome, NO_MEDIA);
      const record = shareRecord(message, outcome, settled);
      if (!settled.store) return fast(record);
      return fast(
        { ...record, mediaUrls: [] },
        outcome.loops.map((l) => l.id),
        outcome.content,
      );
    }
    default:
      break;
  }
  return { fast: null, outcome };
}

/**
 * The batch form: stores fast texts set-wise, in the caller's transaction (the one that took them,
 * takeInbound): their updates in one INSERT (the Loops' counting trigger runs once, after their
 * rows are locked in id order, so batches and single texts sharing Loops never wait on each
 * other in a circle), then recordOutcomes for all of them (the rows counted as an attempt, as a
 * claim counts). Safe to run again for the same texts. Rows travel as JSON parameters, so the
 * statements' text never changes.
 */
export async function applyOutcomes(tx: DbOrTx, texts: readonly FastText[]): Promise<void> {
  if (texts.length === 0) return;
  const ordered = [...texts].sort((a, b) => a.record.message.row.id - b.record.message.row.id);
  const made = ordered.flatMap((t) =>
    t.loopIds.map((loopId) => ({
      loop_id: loopId,
      user_id: t.record.userId,
      content: t.content,
      message_id: t.record.message.row.id,
      created_at: t.record.message.row.createdAt.toISOString(),
    })),
  );
  if (made.length > 0) {
    const loopIds = [...new Set(made.map((u) => u.loop_id))].sort((a, b) => a - b);
    await tx.execute(sql`select ${loops.id} from ${loops}
      where ${loops.id} in (select jsonb_array_elements_text(${JSON.stringify(loopIds)}::jsonb)::bigint)
      order by ${loops.id} for no key update`);
    await tx.execute(sql`insert into ${updates} (loop_id, user_id, content, message_id, created_at)
      select u.loop_id, u.user_id, u.content, u.message_id, u.created_at
      from ${recordset('u', { loop_id: 'bigint', user_id: 'bigint', content: 'text', message_id: 'bigint', created_at: 'timestamptz' }, made)}
      order by u.message_id, u.loop_id
      on conflict (message_id, loop_id) do nothing`);
  }
  await recordOutcomes(
    tx,
    ordered.map((t) => t.record),
    { countAttempt: true },
  );
}
