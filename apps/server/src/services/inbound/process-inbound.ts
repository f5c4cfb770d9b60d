import { and, eq, gt, sql } from 'drizzle-orm';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../../db/client';
import { messages, users } from '../../db/schema';
import type { FetchMediaOptions } from '../../messaging/fetch-media';
import type { MessageRow, MessagingContext } from '../../messaging/context';
import { DAY_MS } from '../../lib/clock';
import { collectInboundMedia, type UnsupportedMedia } from '../../messaging/inbound-media';
import { parseKeyword } from './keywords';
import { isOptedOut } from '../../messaging/opt-outs';
import { insertOutbound, type TextKind } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';
import { routeText, type LoopRef } from './route-text';
import { parseConsent } from './consent';
import { handleConsent } from './handle-consent';
import { isSimulatorAddress, simulatorScope } from '../../messaging/simulator';
import { handleKeyword } from './handle-keyword';
import { storeUpdates } from '../updates/store-updates';
import { openWhatsappWindow } from '../../messaging/template-follow-ups';
import { activeLoopsOf, type KnownSender } from './sender-facts';

/** Thrown to try the whole message again later (a photo host failed for now). */
export class RetryLater extends Error {}

/**
 * Handles one stored inbound text: keywords, routing to the sender's Loops, copying photos,
 * creating updates and the reply. Safe to run again for the same row: updates are unique per
 * (message, Loop) and the reply per message.
 */
export async function processInbound(
  ctx: MessagingContext,
  row: MessageRow,
  options: { fetchOptions?: FetchMediaOptions; known?: KnownSender } = {},
): Promise<void> {
  const { db, config, storage } = ctx;
  const params = row.raw ?? {};
  const body = params.Body ?? row.body;
  const phone = toE164(row.fromAddress);
  // A simulator viewer playing someone else's phone reaches only the Loops they own.
  const scope = simulatorScope(row.toAddress, params);
  // What the worker read for this sender's texts (decision 0016), unless the simulator narrows it.
  const known = scope === null ? options.known?.facts : undefined;
  const [user] = known ? (known.user ? [known.user] : []) : phone ? await db.select().from(users).where(eq(users.phoneNumber, phone)) : [];

  const finish = (
    tx: DbOrTx,
    status: 'processed' | 'ignored',
    reply?: string,
    extra: { kind?: TextKind; error?: string; loopId?: number | null } = {},
  ) => finishInbound(tx, row, { status, userId: user?.id ?? null, loopId: null, reply, phone, ...extra });

  // A WhatsApp user known by a username only (whatsapp:XX.…, no phone number): Loop cannot match
  // or answer it. Kept, with why, so staff can see it.
  if (!phone) {
    return db.transaction((tx) =>
      finish(tx, 'ignored', undefined, { error: `Not handled: the sender ${row.fromAddress} has no phone number.` }),
    );
  }

  const simulated = isSimulatorAddress(row.toAddress);
  const keyword = parseKeyword(body, params.OptOutType);
  const consent = keyword === null || keyword === 'opt_in' ? parseConsent(body) : null;
  // A keyword or an answer may change what was read: the sender's later texts read it again.
  if ((keyword || consent) && options.known) options.known.facts = undefined;
  if (consent) {
    const handled = await db.transaction(async (tx) => {
      const twilioAnswersOptIn = (params.OptOutType ?? '') !== '' || (row.channel === 'sms' && config.TWILIO_KEYWORD_REPLIES === 'twilio');
      const answer = await handleConsent(tx, {
        consent,
        phone,
        userId: user?.id ?? null,
        scope,
        now: ctx.clock(),
        twilioAnswersOptIn,
        simulated,
      });
      if (answer) await finish(tx, 'processed', answer.reply, { loopId: answer.loopId, ...(answer.kind ? { kind: answer.kind } : {}) });
      return answer !== null;
    });
    if (handled) return;
  }
  if (keyword) {
    await db.transaction(async (tx) => {
      const reply = await handleKeyword(tx, {
        keyword,
        phone,
        userId: user?.id ?? null,
        word: body,
        optOutType: params.OptOutType,
        channel: row.channel,
        simulated,
        keywordReplies: config.TWILIO_KEYWORD_REPLIES,
        scope,
        now: ctx.clock(),
      });
      await finish(tx, 'processed', reply?.body, reply ? { kind: reply.kind } : {});
    });
    return;
  }
  // STOP is absolute: a text from a phone that opted out is shared with no one (decision 0014).
  if (known ? known.optedOut : await isOptedOut(db, phone)) {
    return db.transaction(async (tx) => {
      const hint = row.channel === 'whatsapp' && !(await toldRecently(tx, phone, row.createdAt));
      await finish(tx, 'ignored', hint ? replies.rejoinHint() : undefined, {
        kind: 'opt_out_notice',
        error: 'Not shared: this phone opted out (STOP).',
      });
    });
  }
  // A tap on a template's quick-reply button answers our text: it opens the window, shares nothing.
  if (params.MessageType === 'button') return db.transaction((tx) => finish(tx, 'processed'));

  // Only Loops the sender said yes to (or made) get their texts.
  const userLoops = !user ? [] : known ? known.loops : ((await activeLoopsOf(db, [user.id], scope)).get(user.id) ?? []);
  const routing = routeForSender(body, user, userLoops);
  if (routing.kind === 'nowhere') return db.transaction((tx) => finish(tx, 'ignored', routing.reply));

  const media = await collectInboundMedia(params, {
    config,
    storage,
    fromSimulator: simulated,
    transcriber: ctx.transcriber,
    ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
  });
  if (media.retryable && row.attempts < config.SEND_MAX_ATTEMPTS) throw new RetryLater('a photo could not be fetched yet');

  const location = params.MessageType === 'location' || (params.Latitude !== undefined && params.Longitude !== undefined);
  const unsupported = unsupportedReplies(media.unsupported, location);
  // A voice memo or video alone that could not be kept: the reply says why and what to send instead.
  if (routing.content === '' && media.photos.length === 0 && media.clips.length === 0 && media.refusedClips.length > 0) {
    unsupported.push(replies.clipsSkipped(media.refusedClips));
  }
  if (routing.content === '' && media.photos.length === 0 && media.clips.length === 0) {
    return db.transaction((tx) => finish(tx, 'ignored', unsupported.length > 0 ? unsupported.join(' ') : replies.nothingToShare()));
  }

  const notes = [
    replies.shared(
      routing.user.firstName,
      routing.loops.map((l) => l.name),
      media.photos.length,
      media.clips,
    ),
    ...unsupported,
  ];
  if (media.refused.length > 0) notes.push(replies.photosSkipped(media.refused));
  if (media.refusedClips.length > 0) notes.push(replies.clipsSkipped(media.refusedClips));
  await storeUpdates(ctx, {
    row,
    userId: routing.user.id,
    loops: routing.loops,
    content: routing.content,
    photos: media.photos,
    clips: media.clips,
    storage,
    finish: (tx, mediaUrls) =>
      finishInbound(tx, row, {
        status: 'processed',
        userId: routing.user.id,
        loopId: routing.loops.length === 1 ? (routing.loops[0]?.id ?? null) : null,
        reply: notes.join(' '),
        phone,
        mediaUrls,
      }),
  });
  for (const key of media.uploads) await storage.delete(key);
}

/**
 * Which of the sender's Loops get a text, or the reply saying why none does: an unknown phone
 * or one in no Loop, a name that fits none of its Loops or several.
 */
export function routeForSender<User>(
  body: string,
  user: User | undefined,
  userLoops: LoopRef[],
): { kind: 'loops'; user: User; loops: LoopRef[]; content: string } | { kind: 'nowhere'; reply: string } {
  if (user === undefined || userLoops.length === 0) return { kind: 'nowhere', reply: replies.joinHelp() };
  const routing = routeText(body, userLoops);
  if (routing.kind === 'unknown_name')
    return {
      kind: 'nowhere',
      reply: replies.unknownLoop(
        routing.name,
        userLoops.map((l) => l.name),
      ),
    };
  if (routing.kind === 'same_name') {
    return { kind: 'nowhere', reply: replies.sameName(routing.loops.map((l) => ({ name: l.name, ownerName: l.ownerName ?? '' }))) };
  }
  return { ...routing, user };
}

/** The replies for what a text carried that Loop cannot share, one per kind of thing. */
function unsupportedReplies(unsupported: UnsupportedMedia, location: boolean): string[] {
  const notes: string[] = [];
  if (unsupported.audioVideo > 0) notes.push(replies.clipsUnavailable());
  if (unsupported.contacts > 0) notes.push(replies.cannotShare(unsupported.contacts === 1 ? 'a contact card' : 'contact cards'));
  if (unsupported.files.length > 0) notes.push(replies.cannotShare(describeFiles(unsupported.files)));
  if (location) notes.push(replies.location());
  return notes;
}

function describeFiles(types: string[]): string {
  const pdfs = types.filter((t) => t === 'application/pdf').length;
  if (pdfs === types.length) return pdfs === 1 ? 'a PDF' : 'PDFs';
  return types.length === 1 ? 'that kind of file' : 'those kinds of files';
}

/** Whether this phone was told it opted out (the confirmation or the rejoin hint) in the last day. */
async function toldRecently(tx: DbOrTx, phone: string, now: Date): Promise<boolean> {
  const [told] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(eq(messages.toAddress, phone), eq(messages.kind, 'opt_out_notice'), gt(messages.createdAt, new Date(now.getTime() - DAY_MS))),
    )
    .limit(1);
  return told !== undefined;
}

/** Marks the row handled, notes the sender's last WhatsApp text (the window) and queues the reply. */
async function finishInbound(
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
    channel: row.channel,
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
