import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** HELP, LOOPS: the answer, nothing changes. */
export const answer: Act<'answer'> = (ctx, message, outcome) =>
  ctx.db.transaction((tx) =>
    recordOutcomes(tx, [{ message, status: 'processed', userId: message.userId, loopId: null, reply: outcome.reply }]),
  );
