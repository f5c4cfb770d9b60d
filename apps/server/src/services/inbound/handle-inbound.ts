import { and, eq, gt, sql } from 'drizzle-orm';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../../db/client';
import { consentQuestions, erasureRequests, loops, messages } from '../../db/schema';
import type { FetchMediaOptions } from '../../messaging/fetch-media';
import { textChannel, type MessageRow, type MessagingContext } from '../../messaging/context';
import { DAY_MS } from '../../lib/clock';
import { collectInboundMedia } from '../../messaging/inbound-media';
import { isOptedOut, optInPhone, optOutPhone } from '../../messaging/opt-outs';
import { insertOutbound, type TextKind } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';
import { simulatorScope } from '../../messaging/simulator';
import { storeReactions } from '../newsletters/reactions';
import { storeUpdates } from '../updates/store-updates';
import { openWhatsappWindow } from '../../messaging/template-follow-ups';
import { confirmMembership } from '../members/confirm-membership';
import { changesFacts, decideInbound, inboundSettings, inboundText, UNCLEAR_HELD, type Reply } from './decide-inbound';
import { HELD_FOR_YES } from './held-texts';
import { QUESTION_LIFETIME_MS, type ConsentOutcome } from './decide-consent';
import { settleShare } from './settle-share';
import { setPhonePin } from '../calls/phone-pin';
import { deleteAccount } from '../users/delete-account';
import { ERASED_MARK } from '../users/scrub-erased-texts';
import { ERASURE_CODE_MS, newErasureCode } from './erasure-code';
import { readSenderFacts, type HeldFacts } from './sender-facts';

/** What a "PIN 4821" text is kept as. */
const PIN_MASK = 'PIN ****';

/** Thrown to try the whole message again later (a photo host failed for now). */
export class RetryLater extends Error {}

/**
 * Handles one stored inbound text: reads its sender's facts (or takes the worker's), lets
 * decideInbound say what the text does, and stores that: an opt-out or opt-in, a YES, the
 * updates with their photos (fetched and converted here), the reply. Safe to run again for the
 * same row: updates are unique per (message, Loop) and the reply per message.
 */
export async function handleInbound(
  ctx: MessagingContext,
  row: MessageRow,
  options: { fetchOptions?: FetchMediaOptions; held?: HeldFacts } = {},
): Promise<void> {
  const { db, config, storage } = ctx;
  const text = inboundText(row, inboundSettings(config));
  const phone = toE164(row.fromAddress);
  // A WhatsApp user with a username only (whatsapp:XX.…, no phone number): Loop cannot match
  // or answer it. Kept, with why, so staff can see it.
  if (!phone) {
    return db.transaction((tx) =>
      recordOutcome(tx, row, {
        status: 'ignored',
        userId: null,
        loopId: null,
        reply: undefined,
        phone,
        error: `Not handled: the sender ${row.fromAddress} has no phone number.`,
      }),
    );
  }
  const now = ctx.clock();
  // A simulator viewer playing someone else's phone reaches only the Loops they own.
  const scope = simulatorScope(row.toAddress, text.params);
  // What the worker read for this sender's texts (decision 0016), unless the simulator narrows it.
  const facts = (scope === null ? options.held?.facts : undefined) ?? (await readSenderFacts(db, [phone], now, scope)).get(phone);
  if (!facts) throw new Error('no facts read for the sender');
  const outcome = decideInbound(text, facts);
  // A keyword or an answer changes what was read: the sender's later texts read it again.
  if (changesFacts(outcome) && options.held) options.held.facts = undefined;

  const userId = facts.user?.id ?? null;
  // Ends this text: recordOutcome with its sender filled in.
  const finish = (
    tx: DbOrTx,
    status: 'processed' | 'ignored',
    reply?: Reply | string,
    extra: { error?: string; loopId?: number | null } = {},
  ) =>
    recordOutcome(tx, row, {
      status,
      userId,
      loopId: null,
      phone,
      reply: typeof reply === 'string' ? reply : reply?.body,
      ...(typeof reply === 'object' ? { kind: reply.kind } : {}),
      ...extra,
    });

  switch (outcome.kind) {
    case 'opt_out':
      return db.transaction(async (tx) => {
        await optOutPhone(tx, phone, outcome.reason, now);
        await finish(tx, 'processed', outcome.reply);
      });
    case 'opt_in':
      return db.transaction(async (tx) => {
        await optInPhone(tx, phone);
        await finish(tx, 'processed', outcome.reply);
      });
    case 'answer':
      return db.transaction((tx) => finish(tx, 'processed', outcome.reply));
    case 'reaction':
      // Under the newsletter it answers, never an update (decision 0056).
      return db.transaction(async (tx) => {
        const newsletterIds = outcome.loops.flatMap((l) => (l.lastIssue ? [l.lastIssue.id] : []));
        await storeReactions(tx, { newsletterIds, userId: outcome.userId, body: outcome.body, messageId: row.id, at: row.createdAt });
        const reply = replies.reacted(
          outcome.firstName,
          outcome.loops.map((l) => l.name),
        );
        await finish(tx, 'processed', reply, { loopId: outcome.loops.length === 1 ? (outcome.loops[0]?.id ?? null) : null });
      });
    case 'held_for_yes':
      // Kept, unshared, until YES (confirmMembership releases it to the Loop they join); told once a day.
      return db.transaction(async (tx) => {
        const told = await toldRecently(tx, phone, row.createdAt, outcome.reply);
        await finish(tx, 'ignored', told ? undefined : outcome.reply, { error: HELD_FOR_YES });
      });
    case 'unclear':
      // Held, never shared (decision 0055); asked once a day, so a run of them is one question.
      return db.transaction(async (tx) => {
        const asked = await toldRecently(tx, phone, row.createdAt, outcome.reply);
        await finish(tx, 'ignored', asked ? undefined : outcome.reply, { error: UNCLEAR_HELD });
      });
    case 'consent':
      return db.transaction(async (tx) => {
        const { reply, loopId } = await storeConsent(tx, phone, outcome, now);
        await finish(tx, 'processed', reply, { loopId });
      });
    case 'opted_out':
      // STOP is absolute: a text from a phone that opted out is shared with no one (decision 0014).
      return db.transaction(async (tx) => {
        const hint = row.channel === 'whatsapp' && !(await toldRecently(tx, phone, row.createdAt));
        await finish(tx, 'ignored', hint ? { body: replies.rejoinHint(), kind: 'opt_out_notice' } : undefined, {
          error: 'Not shared: this phone opted out (STOP).',
        });
      });
    case 'button':
      return db.transaction((tx) => finish(tx, 'processed'));
    case 'erase_ask':
      return db.transaction(async (tx) => {
        const { code, codeHash } = newErasureCode(phone, config.SESSION_SECRET);
        const request = { codeHash, askedAt: now, expiresAt: new Date(now.getTime() + ERASURE_CODE_MS) };
        await tx
          .insert(erasureRequests)
          .values({ phoneNumber: phone, ...request })
          .onConflictDoUpdate({ target: erasureRequests.phoneNumber, set: request });
        await finish(tx, 'processed', { body: replies.erasureAsk(code), kind: 'reply' });
      });
    case 'erase': {
      // The member and all they sent (decision 0045); the Loops such a member runs (made by staff
      // for them) go too: nobody else was given them. This text's row keeps no words either.
      const keys = await db.transaction(async (tx) => {
        const owned = await tx.select({ id: loops.id }).from(loops).where(eq(loops.creatorId, outcome.userId));
        const gone = await deleteAccount(tx, {
          userId: outcome.userId,
          handOver: [],
          deleteLoops: owned.map((l) => l.id),
          reason: 'erased_by_text',
          now,
        });
        await recordOutcome(tx, row, {
          status: 'processed',
          userId: null,
          loopId: null,
          phone,
          reply: outcome.reply.body,
          kind: outcome.reply.kind,
        });
        // The number waits here until that last text is sent, then goes (scrubErasedTexts).
        await tx
          .insert(erasureRequests)
          .values({ phoneNumber: phone, codeHash: ERASED_MARK, askedAt: now, expiresAt: new Date(now.getTime() + DAY_MS) });
        return gone;
      });
      for (const key of keys) await storage.delete(key);
      return;
    }
    case 'set_pin':
      // Stored only as a keyed hash: the text's row keeps no digits (decision 0067).
      return db.transaction(async (tx) => {
        await setPhonePin(tx, { secret: config.SESSION_SECRET, userId: outcome.userId, pin: outcome.pin });
        const raw = row.raw ? { ...row.raw, Body: PIN_MASK } : row.raw;
        await tx.update(messages).set({ body: PIN_MASK, raw }).where(eq(messages.id, row.id));
        await finish(tx, 'processed', outcome.reply);
      });
    case 'nowhere':
      return db.transaction((tx) => finish(tx, 'ignored', outcome.reply));
    case 'share':
      break;
  }

  const media = await collectInboundMedia(text.params, {
    config,
    storage,
    fromSimulator: text.simulated,
    transcriber: ctx.transcriber,
    ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
  });
  if (media.retryable && row.attempts < config.SEND_MAX_ATTEMPTS) throw new RetryLater('a photo could not be fetched yet');
  const settled = settleShare(outcome, { ...media, photos: media.photos.length });
  if (!settled.store) return db.transaction((tx) => finish(tx, settled.status, settled.reply));
  await storeUpdates(ctx, {
    row,
    userId: outcome.userId,
    loops: outcome.loops,
    content: outcome.content,
    photos: media.photos,
    clips: media.clips,
    storage,
    finish: (tx, mediaUrls) =>
      recordOutcome(tx, row, {
        status: settled.status,
        userId: outcome.userId,
        loopId: outcome.loops.length === 1 ? (outcome.loops[0]?.id ?? null) : null,
        reply: settled.reply,
        phone,
        mediaUrls,
      }),
  });
  for (const key of media.uploads) await storage.delete(key);
}

/**
 * Stores an answer to invitations: lifts a STOP (YES), confirms the one membership, keeps or
 * forgets the "which Loop?" question. The reply says "nothing changed" when the membership could
 * no longer be confirmed (answered or expired meanwhile).
 */
async function storeConsent(
  tx: DbOrTx,
  phone: string,
  outcome: ConsentOutcome,
  now: Date,
): Promise<{ reply: Reply | undefined; loopId: number | null }> {
  if (outcome.optIn) await optInPhone(tx, phone);
  if (outcome.ask) {
    const question = { membershipIds: outcome.ask, askedAt: now, expiresAt: new Date(now.getTime() + QUESTION_LIFETIME_MS) };
    await tx
      .insert(consentQuestions)
      .values({ phoneNumber: phone, ...question })
      .onConflictDoUpdate({ target: consentQuestions.phoneNumber, set: question });
  } else if (outcome.clearQuestion) {
    await tx.delete(consentQuestions).where(eq(consentQuestions.phoneNumber, phone));
  }
  if (outcome.confirm === null) return { reply: outcome.reply, loopId: outcome.loopId };
  const joined = await confirmMembership(tx, outcome.confirm, now);
  return joined
    ? { reply: outcome.reply, loopId: joined.loopId }
    : { reply: { body: replies.nothingToJoin(), kind: 'reply' }, loopId: null };
}

/**
 * Whether this phone was told it opted out (the confirmation or the rejoin hint) in the last day,
 * or, given `reply`, was sent that same reply.
 */
async function toldRecently(tx: DbOrTx, phone: string, now: Date, reply?: Reply): Promise<boolean> {
  const what = reply ? and(eq(messages.kind, reply.kind), eq(messages.body, reply.body)) : eq(messages.kind, 'opt_out_notice');
  const [told] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.toAddress, phone), what, gt(messages.createdAt, new Date(now.getTime() - DAY_MS))))
    .limit(1);
  return told !== undefined;
}

/** Marks the row handled, notes the sender's last WhatsApp text (the window) and queues the reply. */
async function recordOutcome(
  tx: DbOrTx,
  row: MessageRow,
  outcome: {
    status: 'processed' | 'ignored';
    userId: number | null;
    loopId: number | null;
    reply: string | undefined;
    phone: string | null;
    mediaUrls?: string[];
    kind?: TextKind;
    /** Why the text was not handled as usual, for staff. */
    error?: string;
  },
): Promise<void> {
  await tx
    .update(messages)
    .set({
      status: outcome.status,
      userId: outcome.userId,
      loopId: outcome.loopId,
      error: outcome.error ?? null,
      nextAttemptAt: null,
      ...(outcome.mediaUrls ? { mediaUrls: outcome.mediaUrls } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, row.id));
  // Only a WhatsApp text opens WhatsApp's 24-hour window: the window is per channel.
  if (outcome.userId !== null && row.channel === 'whatsapp') {
    await openWhatsappWindow(tx, { userId: outcome.userId, phone: outcome.phone ?? null, fromAddress: row.toAddress, at: row.createdAt });
  }
  const kind = outcome.kind ?? 'reply';
  if (!outcome.reply || !outcome.phone) return;
  // Only the STOP confirmation and the rejoin hint reach a phone that opted out.
  if (kind !== 'opt_out_notice' && (await isOptedOut(tx, outcome.phone))) return;
  await insertOutbound(tx, {
    channel: textChannel(row.channel),
    toAddress: outcome.phone,
    // From the number they texted, so the reply lands in the same conversation.
    fromAddress: row.toAddress,
    kind,
    body: outcome.reply,
    createdAt: row.createdAt,
    idempotencyKey: `reply:${row.id}`,
    userId: outcome.userId,
    loopId: outcome.loopId,
    mediaUrls: [],
  });
}
