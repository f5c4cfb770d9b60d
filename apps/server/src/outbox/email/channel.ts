import type { ChannelAdapter } from '../channel';
import { claimDue, startOrder } from '../claim-outbound';
import { createPacer } from '../pacer';
import { sendClaimedEmails } from './send-emails';

const LEASE_MS = 2 * 60_000;
/** E-mails a claim takes unpaced; paced, five seconds' worth. */
const EMAIL_BATCH = 200;

/**
 * E-mail through ctx.mailer (nodemailer over SMTP_URL, or the Mail Simulator; decision 0047):
 * paced at MAIL_RATE_PER_SECOND for all processes together (sender_paces row "email"), a 4xx or a
 * lost connection retried with backoff, a 5xx failed and the address marked bouncing.
 */
export const emailChannel: ChannelAdapter = {
  name: 'email',
  channels: ['email'],
  wakeOn: 'email',
  fullSweep: 10,
  createPacer: (ctx) => createPacer(ctx.db, ctx.config.MAIL_RATE_PER_SECOND),
  sweep: async (ctx, pacer, { signal, abortSends }) => {
    const rate = ctx.config.MAIL_RATE_PER_SECOND;
    const limit = rate > 0 ? Math.max(10, Math.min(EMAIL_BATCH, Math.ceil(rate * 5))) : EMAIL_BATCH;
    // Long enough for a paced batch to go out before another process may take the rows again.
    const lease = Math.max(LEASE_MS, rate > 0 ? (limit / rate) * 2000 : 0);
    const now = ctx.clock();
    const rows = startOrder(await claimDue(ctx.db, { now, leaseUntil: new Date(now.getTime() + lease), limit }, ['email']).returning());
    if (rows.length === 0) return 0;
    await sendClaimedEmails(ctx, rows, pacer, signal, abortSends);
    return rows.length;
  },
};
