import { replies } from '../../../../messaging/replies';
import { storeReactions } from '../../../newsletters/reactions';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** Praise or emoji after a newsletter: kept under the newsletter it answers, never an update (decision 0056). */
export const reaction: Act<'reaction'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    const newsletterIds = outcome.loops.flatMap((l) => (l.lastIssue ? [l.lastIssue.id] : []));
    await storeReactions(tx, { newsletterIds, userId: outcome.userId, body: outcome.body, messageId: message.row.id, at: message.at });
    const body = replies.reacted(
      outcome.firstName,
      outcome.loops.map((l) => l.name),
    );
    const loopId = outcome.loops.length === 1 ? (outcome.loops[0]?.id ?? null) : null;
    await recordOutcomes(tx, [{ message, status: 'processed', userId: message.userId, loopId, reply: { body, kind: 'reply' } }]);
  });
