import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { JoinAnswer, joinLoopSchema } from '@loop/shared/loops';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { chooseEmailDelivery } from '../email/choose-email-delivery';
import { openInvitation } from '../members/open-invitation';
import { findInvite } from './find-invite';

/**
 * Joins a Loop through an invite link. Anyone holding the link can type any number, so this is a
 * pending membership and an invitation text to that phone, counted against the link's own limits
 * (decision 0053), never the creator's own adds. Joining twice is still a success, with one membership, and answers the same.
 */
export async function joinLoop(
  db: Db,
  options: { code: string; input: z.output<typeof joinLoopSchema>; config: Config; now: Date },
): Promise<JoinAnswer> {
  return db.transaction(async (tx) => {
    const { invite, loop } = await findInvite(tx, options.code, options.now);
    const adderId = invite.createdById ?? loop.creatorId;
    const [adder] = await tx
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, adderId));
    if (!adder) throw new Error('the Loop has no creator');
    const { newsletterDelivery, ...person } = options.input;
    const added = await openInvitation(tx, {
      loop,
      person,
      context: null,
      adder,
      viaLink: true,
      inviteId: invite.id,
      config: options.config,
      now: options.now,
    });
    // E-mail chosen on the join page: one confirmation link, nothing more until it is followed (decision 0047).
    if (added && newsletterDelivery !== 'text' && person.email) {
      await chooseEmailDelivery(tx, added.user, person.email, newsletterDelivery, {
        loop,
        addedBy: null,
        config: options.config,
        now: options.now,
      });
    }
    // The same answer whether or not the phone was in the Loop: whoever holds the link learns nothing of it.
    return { ok: true, loopId: loop.id, loopName: loop.name };
  });
}
