import { asc, eq, sql } from 'drizzle-orm';
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
import { isSimulatorAddress } from './simulator';
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
  if (keyword) {
    await db.transaction(async (tx) => {
      const reply = await handleKeyword(tx, { keyword, phone, userId: user?.id ?? null, word: body, optOutType: params.OptOutType, now: ctx.clock() });
      await finish(tx, 'processed', reply ?? undefined);
    });
    return;
  }
  if (!user) return db.transaction((tx) => finish(tx, 'ignored', replies.joinHelp()));

  const userLoops = await db
    .select({ id: loops.id, name: loops.name })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(eq(members.userId, user.id))
    .orderBy(asc(loops.name));
  if (userLoops.length === 0) return db.transaction((tx) => finish(tx, 'ignored', replies.joinHelp()));

  const routing = routeText(body, userLoops);
  if (routing.kind === 'unknown_name') {
    return db.transaction((tx) => finish(tx, 'ignored', replies.unknownLoop(routing.name, userLoops.map((l) => l.name))));
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
  if (media.refused.length > 0) notes.push(replies.photosSkipped(media.refused));
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
