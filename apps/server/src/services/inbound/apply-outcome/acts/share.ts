import type { Outcome } from '../../decide-inbound';
import { settleShare } from '../../settle-share';
import { storeUpdates } from '../../../updates/store-updates';
import type { Act, InboundMessage } from '../inbound-message';
import { recordOutcomes, type OutcomeRecord } from '../record-outcomes';

/** Thrown to try the whole message again later (a photo host failed for now). */
export class RetryLater extends Error {}

/**
 * To the sender's Loops: what it carries is fetched and converted (its channel's media), then one
 * update per Loop with its own copies, the message's end in the same transaction (storeUpdates).
 * Nothing to share (an empty text, a clip that could not be kept) ends it with the reply saying why.
 */
export const share: Act<'share'> = async (ctx, message, outcome) => {
  const media = await message.media();
  if (media.retryable && message.row.attempts < ctx.config.SEND_MAX_ATTEMPTS) throw new RetryLater('a photo could not be fetched yet');
  const settled = settleShare(outcome, { ...media, photos: media.photos.length });
  if (!settled.store) {
    await ctx.db.transaction((tx) => recordOutcomes(tx, [shareRecord(message, outcome, settled)]));
  } else {
    await storeUpdates(ctx, {
      row: message.row,
      userId: outcome.userId,
      loops: outcome.loops,
      content: outcome.content,
      photos: media.photos,
      clips: media.clips,
      storage: ctx.storage,
      finish: (tx, mediaUrls) => recordOutcomes(tx, [{ ...shareRecord(message, outcome, settled), mediaUrls }]),
    });
  }
  for (const key of media.uploads) await ctx.storage.delete(key);
};

/** How a message going to Loops ends once its media are known (settleShare). */
export function shareRecord(
  message: Pick<InboundMessage, 'row' | 'phone' | 'loopId'>,
  outcome: Extract<Outcome, { kind: 'share' }>,
  settled: ReturnType<typeof settleShare>,
): OutcomeRecord {
  return {
    message,
    status: settled.status,
    userId: outcome.userId,
    loopId: settled.store && outcome.loops.length === 1 ? (outcome.loops[0]?.id ?? null) : null,
    reply: { body: settled.reply, kind: 'reply' },
  };
}
