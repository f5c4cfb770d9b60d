import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages } from '../../db/schema';
import type { SenderCheck } from '../../mail/authenticate-sender';
import type { ParsedReply } from '../../mail/read-reply';
import type { MessageRow, MessagingContext } from '../../messaging/context';
import { convertAttachments } from '../../messaging/inbound-media';
import { applyOutcome } from '../inbound/apply-outcome/apply-outcome';
import { decideInbound } from '../inbound/decide-inbound';
import { inboundSettings } from '../inbound/inbound-text';
import { readSenderFacts } from '../inbound/sender-facts';
import type { ReplyMember } from './find-reply-member';

/** What became of one reply to one member's address. */
export type ReplyOutcome =
  /** Not this member's to send: the From is not their address, or the sender is not who it says. */
  | { kind: 'refused'; reason: string }
  /** Taken: stored as an update, or kept unshared (`ignored`), or taken before (`duplicate`). */
  | { kind: 'accepted'; status: 'processed' | 'ignored' | 'duplicate' };

/**
 * Turns an e-mail reply into the member's update, as a text becomes one: decided by decideInbound
 * and applied by applyOutcome, as every channel's inbound is (the same consent rules, routing,
 * photo and clip pipelines, size rules and reply wording), the answer sent back as a short
 * e-mail. The message is a `messages` row (channel `email`), stored once per message and member:
 * a sender that delivers it again (it never heard our 250) changes nothing, and one that was cut
 * off half-way is finished.
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
  // The sender's facts, with the one Loop this reply address names: decided as a text is.
  const now = ctx.clock();
  const read = (await readSenderFacts(ctx.db, [user.phoneNumber], now)).get(user.phoneNumber);
  if (!read) throw new Error('no facts read for the member');
  const facts = { ...read, loops: read.loops.filter((l) => l.id === member.loopId) };
  const text = {
    body: reply.text,
    channel: 'email' as const,
    params: {},
    attachments: reply.attachments.length,
    at: now,
    simulated: false,
  };
  const outcome = decideInbound({ ...text, ...inboundSettings(ctx.config) }, facts);
  const media = () => convertAttachments(reply.attachments, { config: ctx.config, transcriber: ctx.transcriber });
  await applyOutcome(ctx, { row, phone: user.phoneNumber, userId: user.id, loopId: member.loopId, at: now, media }, outcome);
  const [handled] = await ctx.db.select({ status: messages.status }).from(messages).where(eq(messages.id, row.id));
  return { kind: 'accepted', status: handled?.status === 'processed' ? 'processed' : 'ignored' };
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
