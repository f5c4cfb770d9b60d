import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../db/client';
import { loops, members, messages, users } from '../db/schema';
import { mediaStorageFor } from '../storage/create-storage';
import type { FetchMediaOptions } from './fetch-media';
import type { MessageRow, MessagingContext } from './context';
import { collectInboundMedia } from './inbound-media';
import { parseKeyword } from './keywords';
import { isOptedOut } from './opt-outs';
import { insertOutbound } from './outbox';
import { replies } from './replies';
import { routeText } from './route-text';
import { membershipIsActive } from '../services/memberships/membership-is-active';
import { parseConsent } from './consent';
import { handleConsent } from './handle-consent';
import { isSimulatorAddress, simulatorScope } from './simulator';
import { handleKeyword } from './handle-keyword';
import { storeUpdates } from './store-updates';

/** Thrown to try the whole message again later (a photo host failed for now). */
export class RetryLater extends Error {}

/**
 * Handles one stored inbound text: keywords, routing to the sender's Loops, copying photos,
 * creating updates and the reply. Safe to run again for the same row: updates are unique per
 * (message, Loop) and the reply per message.
 */
export async function processInbound(ctx: MessagingContext, row: MessageRow, options: { fetchOptions?: FetchMediaOptions } = {}): Promise<void> {
  const { db, config } = ctx;
  const params = row.raw ?? {};
  const body = params.Body ?? row.body;
  const phone = toE164(row.fromAddress);
  const [user] = phone ? await db.select().from(users).where(eq(users.phoneNumber, phone)) : [];

  const finish = (tx: DbOrTx, status: 'processed' | 'ignored', reply?: string, loopId?: number) =>
    finishInbound(tx, row, { status, userId: user?.id ?? null, loopId: loopId ?? null, reply, phone });

  const keyword = parseKeyword(body, params.OptOutType);
  // A simulator viewer playing someone else's phone reaches only the Loops they own.
  const scope = simulatorScope(row.toAddress, params);
  const consent = keyword === null || keyword === 'opt_in' ? parseConsent(body) : null;
  if (consent) {
    const handled = await db.transaction(async (tx) => {
      const answer = await handleConsent(tx, { consent, phone, userId: user?.id ?? null, scope, now: ctx.clock() });
      if (answer) await finish(tx, 'processed', answer.reply, answer.loopId ?? undefined);
      return answer !== null;
    });
    if (handled) return;
  }
  if (keyword) {
    await db.transaction(async (tx) => {
      const reply = await handleKeyword(tx, { keyword, phone, userId: user?.id ?? null, word: body, optOutType: params.OptOutType, now: ctx.clock() });
      await finish(tx, 'processed', reply ?? undefined);
    });
    return;
  }
  if (!user) return db.transaction((tx) => finish(tx, 'ignored', replies.joinHelp()));

  // Only Loops the sender said yes to (or made) get their texts.
  const owner = alias(users, 'owner');
  const userLoops = await db
    .select({ id: loops.id, name: loops.name, ownerName: sql<string>`${owner.firstName} || ' ' || ${owner.lastName}` })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .innerJoin(owner, eq(owner.id, loops.creatorId))
    .where(and(eq(members.userId, user.id), membershipIsActive, scope === null ? undefined : inArray(loops.id, scope.length > 0 ? scope : [-1])))
    .orderBy(asc(loops.name), asc(loops.id));
  if (userLoops.length === 0) return db.transaction((tx) => finish(tx, 'ignored', replies.joinHelp()));

  const routing = routeText(body, userLoops);
  if (routing.kind === 'unknown_name') {
    return db.transaction((tx) => finish(tx, 'ignored', replies.unknownLoop(routing.name, userLoops.map((l) => l.name))));
  }
  if (routing.kind === 'same_name') {
    return db.transaction((tx) => finish(tx, 'ignored', replies.sameName(routing.loops.map((l) => ({ name: l.name, ownerName: l.ownerName ?? '' })))));
  }

  const storage = mediaStorageFor(config);
  const media = await collectInboundMedia(params, {
    config,
    storage,
    fromSimulator: isSimulatorAddress(row.toAddress),
    ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
  });
  if (media.retryable && row.attempts < config.SEND_MAX_ATTEMPTS) throw new RetryLater('a photo could not be fetched yet');

  if (routing.content === '' && media.photos.length === 0) {
    const reply = media.unsupported > 0 ? replies.videoLater() : replies.nothingToShare();
    return db.transaction((tx) => finish(tx, 'ignored', reply));
  }

  const notes = [replies.shared(user.firstName, routing.loops.map((l) => l.name), media.photos.length)];
  if (media.unsupported > 0) notes.push(replies.videoLater());
  if (media.skipped > 0) notes.push(replies.photosSkipped(media.skipped));
  await storeUpdates(ctx, {
    row,
    userId: user.id,
    loops: routing.loops,
    content: routing.content,
    photos: media.photos,
    storage,
    finish: (tx, mediaUrls) =>
      finishInbound(tx, row, {
        status: 'processed',
        userId: user.id,
        loopId: routing.loops.length === 1 ? (routing.loops[0]?.id ?? null) : null,
        reply: notes.join(' '),
        phone,
        mediaUrls,
      }),
  });
  for (const key of media.uploads) await storage.delete(key);
}

/** Marks the row handled, notes the sender's last text (WhatsApp's window) and queues the reply. */
async function finishInbound(
  tx: DbOrTx,
  row: MessageRow,
  outcome: { status: 'processed' | 'ignored'; userId: number | null; loopId: number | null; reply: string | undefined; phone: string | null; mediaUrls?: string[] },
): Promise<void> {
  await tx
    .update(messages)
    .set({
      status: outcome.status,
      userId: outcome.userId,
      loopId: outcome.loopId,
      error: null,
      nextAttemptAt: null,
      ...(outcome.mediaUrls ? { mediaUrls: outcome.mediaUrls } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, row.id));
  if (outcome.userId !== null) {
    await tx
      .update(users)
      .set({ lastInboundAt: sql`greatest(${users.lastInboundAt}, ${row.createdAt.toISOString()}::timestamptz)` })
      .where(eq(users.id, outcome.userId));
  }
  if (!outcome.reply || !outcome.phone || (await isOptedOut(tx, outcome.phone))) return;
  await insertOutbound(tx, {
    channel: row.channel,
    toAddress: outcome.phone,
    // From the number they texted, so the reply lands in the same conversation.
    fromAddress: row.toAddress,
    kind: 'reply',
    body: outcome.reply,
    idempotencyKey: `reply:${row.id}`,
    userId: outcome.userId,
    loopId: outcome.loopId,
    mediaUrls: [],
  });
}
