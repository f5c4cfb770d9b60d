import { eq } from 'drizzle-orm';
import { messages } from '../../../../db/schema';
import { setPhonePin } from '../../../calls/phone-pin';
import type { Act } from '../inbound-message';
import { recordOutcomes } from '../record-outcomes';

/** What a "PIN 4821" text is kept as. */
const PIN_MASK = 'PIN ****';

/** "PIN 4821": the phone line's PIN, stored only as a keyed hash; the text's row keeps no digits (decision 0067). */
export const setPin: Act<'set_pin'> = (ctx, message, outcome) =>
  ctx.db.transaction(async (tx) => {
    await setPhonePin(tx, { secret: ctx.config.SESSION_SECRET, userId: outcome.userId, pin: outcome.pin });
    const { row } = message;
    const raw = row.raw ? { ...row.raw, Body: PIN_MASK } : row.raw;
    await tx.update(messages).set({ body: PIN_MASK, raw }).where(eq(messages.id, row.id));
    await recordOutcomes(tx, [{ message, status: 'processed', userId: message.userId, loopId: null, reply: outcome.reply }]);
  });
