import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages } from '../../db/schema';
import type { SenderCheck } from '../../mail/authenticate-sender';
import type { ParsedReply } from '../../mail/read-reply';
import type { MessageRow, MessagingContext } from '../../messaging/context';
import { convertAttachments } from '../../messaging/inbound-media';
import { readRequest } from '../../messaging/opt-out-words';
import { isOptedOut, optOutPhone } from '../../messaging/opt-outs';
import { replies } from '../../messaging/replies';
import { suppressAddress } from '../email/unsubscribe';
import { routeForSender, UNCLEAR_HELD } from '../inbound/decide-inbound';
import { activeLoopsOf } from '../inbound/sender-facts';
import { reactedIssues } from '../inbound/reaction-words';
import { settleShare } from '../inbound/settle-share';
import { storeReactions } from '../newsletters/reactions';
import { storeUpdates } from '../updates/store-updates';
import type { ReplyMember } from './find-reply-member';
import { queueReplyAck } from './queue-reply-ack';

/** What became of one reply to one member's address. */
export type ReplyOutcome =
  /** Not this member's to send: the From is not their address, or the sender is not who it says. */
  | { kind: 'refused'; reason: string }
  /** Taken: stored as an update, or kept unshared (`ignored`), or taken before (`duplicate`). */
  | { kind: 'accepted'; status: 'processed' | 'ignored' | 'duplicate' };

/**
 * Turns an e-mail reply into the member's update, as a text becomes one (services/inbound): the
 * same consent rules (an active membership; a phone that said STOP shares nothing, decision
 * 0014), the same routing, the same photo and clip pipelines and size rules, the same reply
 * wording, sent back as a short e-mail. The message is a `messages` row (channel `email`), stored
 * once per message and member: a sender that delivers it again (it never heard our 250) changes
 * nothing, and one that was cut off half-way is finished.
 */
export async function receiveReply(
  ctx: MessagingContext,
  input: { member: ReplyMember; toAddress: string; reply: ParsedReply; check: SenderCheck; raw: Buffer },
): Promise<ReplyOutcome> {
  const { member, reply, check } = input;
  const { user } = member;
  if (!sentByMember(member, reply.from)) return { kind: 'refused', reason: 'the sender is not this member' };
  if (check.verdict !== 'pass') return { kind: 'refused', reason: check.reason };
  // The domain DMARC vouched for is the one of the address matched (two parsers read one header).
  if (reply.from?.slice(reply.from.lastIndexOf('@') + 1) !== check.fromDomain) return { kind: 'refused', reason: check.reason };

  const row = await storeRow(ctx.db, input);
  if (row === null) return { kind: 'accepted', status: 'duplicate' };
  // Ends this reply: recordReply with its row, reply and member filled in.
  const finish = (tx: DbOrTx, outcome: Omit<ReplyRecord, 'row' | 'reply' | 'member'>) =>
    recordReply(tx, { row, reply, member, ...outcome });

  // The words a text is read by (decision 0055): a reply that asks to stop stops e-mails and
  // texts alike and is never shared; HELP is answered; one that might ask to stop is held and asked.
  const request = readRequest(reply.text);
  if (request === 'opt_out') {
    await ctx.db.transaction(async (tx) => {
      await suppressAddress(tx, row.fromAddress, 'replied asking to stop');
      await optOutPhone(tx, user.phoneNumber, `e-mail: ${reply.text.trim().toUpperCase().slice(0, 52)}`, ctx.clock());
      await finish(tx, { status: 'processed', error: 'Not shared: it asks to stop (e-mails and texts stopped).' });
    });
    return { kind: 'accepted', status: 'processed' };
  }
  // STOP is absolute (decision 0014): kept, shared with no one, and no answer.
  if (await isOptedOut(ctx.db, user.phoneNumber)) {
    await finish(ctx.db, { status: 'ignored', error: 'Not shared: this phone opted out (STOP).' });
    return { kind: 'accepted', status: 'ignored' };
  }
  if (request === 'help') {
    await ctx.db.transaction((tx) => finish(tx, { status: 'processed', ack: replies.help(ctx.config.supportContact) }));
    return { kind: 'accepted', status: 'processed' };
  }
  const loops = ((await activeLoopsOf(ctx.db, [user.id])).get(user.id) ?? []).filter((l) => l.id === member.loopId);
  const routing = routeForSender(reply.text, user, loops);
  if (routing.kind === 'nowhere') {
    await finish(ctx.db, { status: 'ignored', error: 'Not shared: this membership is not active.' });
    return { kind: 'accepted', status: 'ignored' };
  }
  if (request === 'unclear') {
    await ctx.db.transaction((tx) => finish(tx, { status: 'ignored', error: UNCLEAR_HELD, ack: replies.mightStop() }));
    return { kind: 'accepted', status: 'ignored' };
  }
  // A reply of praise or emoji to a recent newsletter is a reaction to it (decision 0056).
  const now = ctx.clock();
  const reacted = reply.attachments.length === 0 ? reactedIssues(routing.loops, routing.content, now) : [];
  if (reacted.length > 0) {
    await ctx.db.transaction(async (tx) => {
      const newsletterIds = reacted.flatMap((l) => (l.lastIssue ? [l.lastIssue.id] : []));
      await storeReactions(tx, { newsletterIds, userId: user.id, body: routing.content, messageId: row.id, at: now });
      const names = reacted.map((l) => l.name);
      await finish(tx, { status: 'processed', ack: replies.reacted(user.firstName, names) });
    });
    return { kind: 'accepted', status: 'processed' };
  }
  const media = await convertAttachments(reply.attachments, { config: ctx.config, transcriber: ctx.transcriber });
  const share = {
    kind: 'share' as const,
    userId: user.id,
    firstName: user.firstName,
    loops: routing.loops,
    content: routing.content,
    location: false,
    withMedia: reply.attachments.length > 0,
  };
  const settled = settleShare(share, { ...media, photos: media.photos.length });
  if (!settled.store) {
    await ctx.db.transaction((tx) => finish(tx, { status: 'ignored', ack: settled.reply }));
    return { kind: 'accepted', status: 'ignored' };
  }
  await storeUpdates(ctx, {
    row,
    userId: user.id,
    loops: routing.loops,
    content: routing.content,
    photos: media.photos,
    clips: media.clips,
    storage: ctx.storage,
    finish: (tx, mediaUrls) => finish(tx, { status: settled.status, ack: settled.reply, mediaUrls }),
  });
  return { kind: 'accepted', status: settled.status };
}

/**
 * Whether `from` (a From header's address, lower-case) is one Loop holds for this member: the
 * account's e-mail or the address the owner typed for the membership (decision 0049). Checked
 * before anything reads the message's body (decision 0050).
 */
export function sentByMember(member: ReplyMember, from: string | null): boolean {
  if (from === null) return false;
  return [member.user.email, member.memberEmail].some((address) => !!address && address.toLowerCase() === from);
}

/**
 * Stores the reply's row (status `processing`, which no claim of the message worker takes), or
 * finds it stored by an earlier delivery: null when that one was handled to the end.
 */
async function storeRow(
  db: DbOrTx,
  input: { member: ReplyMember; toAddress: string; reply: ParsedReply; check: SenderCheck; raw: Buffer },
): Promise<MessageRow | null> {
  const { reply } = input;
  // One message (by Message-ID, else by its bytes) to one member is one row.
  const messageKey = reply.messageId ?? createHash('sha256').update(input.raw).digest('hex');
  const providerMessageId = `email:${createHash('sha256').update(`${messageKey}\0${input.member.memberId}`).digest('hex')}`;
  const [stored] = await db
    .insert(messages)
    .values({
      direction: 'inbound',
      channel: 'email',
      kind: 'inbound',
      fromAddress: reply.from ?? '',
      toAddress: input.toAddress.toLowerCase(),
      body: reply.text,
      status: 'processing',
      providerMessageId,
      userId: input.member.user.id,
      loopId: input.member.loopId,
      raw: { subject: reply.subject, messageId: reply.messageId ?? '', auth: input.check.summary },
    })
    .onConflictDoNothing({ target: messages.providerMessageId })
    .returning();
  if (stored) return stored;
  const [earlier] = await db.select().from(messages).where(eq(messages.providerMessageId, providerMessageId));
  return earlier && earlier.status === 'processing' ? earlier : null;
}

interface ReplyRecord {
  row: MessageRow;
  reply: ParsedReply;
  member: ReplyMember;
  status: 'processed' | 'ignored';
  /** The acknowledgement's words (the text reply's); none for a reply shared with no one on purpose. */
  ack?: string;
  error?: string;
  mediaUrls?: string[];
}

/** Marks the row handled and queues the acknowledgement e-mail, in the caller's transaction. */
async function recordReply(tx: DbOrTx, outcome: ReplyRecord): Promise<void> {
  const { row } = outcome;
  await tx
    .update(messages)
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      ...(outcome.mediaUrls ? { mediaUrls: outcome.mediaUrls } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, row.id));
  if (outcome.ack === undefined) return;
  await queueReplyAck(tx, {
    messageId: row.id,
    toAddress: row.fromAddress,
    subject: outcome.reply.subject,
    text: outcome.ack,
    userId: outcome.member.user.id,
    loopId: outcome.member.loopId,
  });
}
