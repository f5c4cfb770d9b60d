import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { members } from '../../db/schema';
import { enqueueText } from '../../messaging/outbox';
import { membershipIsActive } from '../memberships/membership-is-active';
import type { NewsletterRow } from './insert-newsletter';

/**
 * Queues one text per member, in the caller's transaction, keyed `{kind}:{newsletterId}:{memberId}`:
 * queueing again (a retry, a second click) texts no one twice. Opted-out phones get nothing; each
 * member gets it on their own channel; only active (confirmed) memberships get it. Returns how many texts were queued.
 */
export async function queueNewsletterTexts(tx: DbOrTx, newsletter: NewsletterRow, body: string): Promise<number> {
  const kind = newsletter.kind === 'sneak_peek' ? 'sneak_peek' : 'newsletter';
  const rows = await tx
    .select({ id: members.id, userId: members.userId })
    .from(members)
    .where(and(eq(members.loopId, newsletter.loopId), membershipIsActive))
    .orderBy(asc(members.id));
  let queued = 0;
  for (const member of rows) {
    const id = await enqueueText(tx, {
      kind,
      userId: member.userId,
      loopId: newsletter.loopId,
      newsletterId: newsletter.id,
      body,
      idempotencyKey: `${kind}:${newsletter.id}:${member.id}`,
    });
    if (id !== null) queued += 1;
  }
  return queued;
}
