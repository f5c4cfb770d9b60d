import { deferQuietTexts } from '../../messaging/quiet-hours';
import type { ChannelAdapter } from '../channel';
import { createPacer } from '../pacer';
import { claimTexts } from './claim-texts';
import { sendDueTexts } from './send-texts';

const LEASE_MS = 2 * 60_000;
const OUTBOUND_BATCH = 50;
const UNPACED_BATCH = 500;

/**
 * SMS and WhatsApp through the MessagingProvider (Twilio or the simulator): paced per sender at
 * SEND_RATE_PER_SECOND (a 3-segment text takes 3 slots), retried with backoff on 429, 5xx and
 * timeouts, WhatsApp's window and templates, status callbacks (messaging/record-status.ts).
 */
export const textsChannel: ChannelAdapter = {
  name: 'texts',
  channels: ['sms', 'whatsapp'],
  wakeOn: 'outbound',
  fullSweep: OUTBOUND_BATCH,
  createPacer: (ctx) => createPacer(ctx.db, ctx.config.SEND_RATE_PER_SECOND),
  sweep: (ctx, pacer, { signal, abortSends }) => {
    const { SEND_RATE_PER_SECOND: rate } = ctx.config;
    // A paced batch spans about five seconds. Unpaced, a larger batch means fewer claims.
    const batch = rate > 0 ? Math.max(OUTBOUND_BATCH, Math.ceil(rate * 5)) : UNPACED_BATCH;
    // Long enough for a paced batch to finish before another process may take the rows again.
    const lease = Math.max(LEASE_MS, rate > 0 ? (batch / rate) * 2000 : 0);
    const claim = async (limit: number) => {
      const now = ctx.clock();
      // Texts that would land in their recipient's quiet hours go back to wait (decision 0037); a
      // full claim of only those claims again, so they never hide texts that may go now.
      for (;;) {
        const rows = await claimTexts(ctx.db, { now, leaseUntil: new Date(now.getTime() + lease), limit });
        const go = await deferQuietTexts(ctx.db, rows, now, ctx.config.QUIET_HOURS);
        if (go.length > 0 || rows.length < limit) return go;
      }
    };
    // Paced, the first claim is a second's worth: the pace starts sooner, the rest follows at once.
    const firstBatch = rate > 0 ? Math.max(10, Math.ceil(rate)) : batch;
    return sendDueTexts(ctx, { claim, batch, firstBatch, pacer, signal, abortSends });
  },
};
