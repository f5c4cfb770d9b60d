import { and, eq, inArray, sql } from 'drizzle-orm';
import { personalArchivePath } from '@loop/shared/newsletters';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { keepUnsubscribeTokens, unsubscribeUrl, type MailLinks } from '../../mail/links';
import { emailMayBeSent, enqueueEmails, type EmailToQueue } from '../../mail/outbox';
import { memberMayBeTexted } from '../../messaging/recipients';
import { newsletterEmails } from '../../publishing/newsletter-email';
import { replyAddressFor } from '../email-replies/reply-address-for';
import { buildNewsletterView } from './build-newsletter-view';
import type { NewsletterRow } from './insert-newsletter';
import { personalArchiveKey } from './personal-archive-key';

/**
 * The members a newsletter of this Loop goes to by e-mail now: who chose e-mail or both, said yes
 * to this Loop (active, the Loop not paused: the same rule as texts), with an address confirmed
 * and not suppressed; by user.
 */
export async function findNewsletterEmailRecipients(tx: DbOrTx, loopId: number) {
  const address = sql<string>`lower(${users.email})`;
  return tx
    .select({ memberId: members.id, userId: users.id, firstName: users.firstName, address, delivery: users.newsletterDelivery })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.loopId, loopId),
        inArray(users.newsletterDelivery, ['email', 'both']),
        memberMayBeTexted(members.userId, members.loopId),
        sql`${users.email} is not null`,
        emailMayBeSent(address, 'newsletter'),
      ),
    )
    .orderBy(users.id);
}

/** E-mails rendered, then queued by one statement. */
const EMAILS_PER_INSERT = 200;

/**
 * Queues the newsletter by e-mail (decision 0047), in the caller's transaction, to each member
 * who chose e-mail or both, said yes to this Loop (active, the Loop not paused: the same rule as
 * texts) and whose address is confirmed and not suppressed. Keyed `newsletter-email:{id}:{userId}`:
 * queueing again e-mails no one twice. Answers the members who chose e-mail only and get it: they
 * get no text with the link (members whose address cannot be e-mailed keep the text). With a
 * `replyDomain` (Loop listens for replies: MAIL_INBOUND_PORT) each e-mail says "Reply to this
 * e-mail with your news" and carries the member's own reply address as Reply-To (decision 0049).
 */
export async function queueNewsletterEmails(
  tx: DbOrTx,
  newsletter: NewsletterRow,
  mail: MailLinks,
): Promise<{ queued: number; emailOnly: Set<number> }> {
  if (newsletter.kind !== 'newsletter') return { queued: 0, emailOnly: new Set() };
  const recipients = await findNewsletterEmailRecipients(tx, newsletter.loopId);
  if (recipients.length === 0) return { queued: 0, emailOnly: new Set() };
  const [loop] = await tx.select({ name: loops.name, timeZone: loops.timeZone }).from(loops).where(eq(loops.id, newsletter.loopId));
  if (!loop) return { queued: 0, emailOnly: new Set() };
  const links = { PUBLIC_URL: mail.publicUrl, SESSION_SECRET: mail.secret };
  await keepUnsubscribeTokens(
    tx,
    mail.secret,
    recipients.map((r) => r.address),
  );
  // One view and one rendering for the whole send: each member's e-mail only fills in their own links.
  const view = await buildNewsletterView(tx, { newsletter, loop, publicUrl: mail.publicUrl, reactions: false });
  const emailFor = newsletterEmails(view);
  let queued = 0;
  // Rendered and inserted a batch at a time: memory holds one batch's e-mails, not the Loop's.
  let batch: EmailToQueue[] = [];
  for (const r of recipients) {
    const replyAddress = mail.replyDomain ? await replyAddressFor(tx, r.memberId, mail.replyDomain) : null;
    // Each member's own link to the past issues: an e-mail forwarded on opens them only while they are a member.
    const archiveUrl = `${mail.publicUrl}${personalArchivePath(personalArchiveKey(mail.secret, r.memberId))}`;
    const email = await emailFor({ unsubscribeUrl: unsubscribeUrl(links, r.address), replyAddress, archiveUrl });
    batch.push({
      kind: 'newsletter',
      toAddress: r.address,
      subject: email.subject,
      text: email.text,
      html: email.html,
      idempotencyKey: `newsletter-email:${newsletter.id}:${r.userId}`,
      userId: r.userId,
      loopId: newsletter.loopId,
      newsletterId: newsletter.id,
      ...(replyAddress ? { replyTo: replyAddress } : {}),
    });
    if (batch.length >= EMAILS_PER_INSERT) {
      queued += await enqueueEmails(tx, batch);
      batch = [];
    }
  }
  queued += await enqueueEmails(tx, batch);
  return { queued, emailOnly: new Set(recipients.filter((r) => r.delivery === 'email').map((r) => r.userId)) };
}
