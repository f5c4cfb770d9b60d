import { HELD_FOR_YES } from '../../held-texts';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';
import { toldRecently } from './told-recently';

/** Kept, unshared, until YES (confirmMembership releases it to the Loop they join); told once a day. */
export const heldForYes: Act<'held_for_yes'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    const told = await toldRecently(tx, message.phone, message.row.createdAt, outcome.reply);
    await recordOutcomes(tx, [
      { message, status: 'ignored', userId: message.userId, loopId: null, reply: told ? undefined : outcome.reply, error: HELD_FOR_YES },
    ]);
  });
