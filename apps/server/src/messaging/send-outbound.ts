import { eq, sql } from 'drizzle-orm';
import { messages, users } from '../db/schema';
import type { MessageRow, MessagingContext } from './context';
import { providerFor } from './create-provider';
import { isOptedOut, optOutPhone } from './opt-outs';
import type { Pacer } from './pacer';
import { planDelivery } from './plan-delivery';
import { PERMANENT_ERROR_CODES, SendError } from './provider';

/**
 * Sends one claimed outbound row (status `sending`). Re-reads it first and does nothing if it
 * was sent meanwhile. Retries later with exponential backoff on errors that may pass; fails at once
 * on those that cannot, marking the member.
 */
export async function sendOutbound(ctx: MessagingContext, claimed: MessageRow, pacer: Pacer): Promise<void> {
  const { db, config } = ctx;
  const [row] = await db.select().from(messages).where(eq(messages.id, claimed.id));
  if (!row || row.status !== 'sending') return;
  if (await isOptedOut(db, row.toAddress)) {
    return finish(ctx, row.id, { status: 'failed', error: 'Not sent: this phone opted out of texts (STOP).' });
  }
  const plan = await planDelivery(ctx, row);
  const mediaUrls = row.mediaUrls.map((url) => (url.startsWith('/') ? `${config.PUBLIC_URL}${url}` : url));
  await pacer.wait(plan.from);
  try {
    const sent = await providerFor(config, plan.from).send({
      to: plan.to,
      from: plan.from,
      body: row.body,
      mediaUrls,
      ...(plan.template ? { template: plan.template } : {}),
      ...(config.PUBLIC_URL.startsWith('https://') ? { statusCallback: `${config.PUBLIC_URL}/api/webhooks/twilio/status` } : {}),
    });
    await finish(ctx, row.id, {
      status: 'sent',
      providerMessageId: sent.providerMessageId,
      channel: plan.channel,
      fromAddress: plan.from,
      sentAt: ctx.clock(),
      error: null,
    });
  } catch (error) {
    const failure = error instanceof SendError ? error : new SendError(error instanceof Error ? error.message : String(error), true);
    await recordFailure(ctx, row, failure);
  }
}

async function recordFailure(ctx: MessagingContext, row: MessageRow, failure: SendError): Promise<void> {
  const { config } = ctx;
  const permanent = Object.values(PERMANENT_ERROR_CODES).some((code) => code === failure.code);
  if (permanent) await markMember(ctx, row, failure.code ?? 0);
  if (failure.retryable && !permanent && row.attempts < config.SEND_MAX_ATTEMPTS) {
    const delayMs = config.SEND_RETRY_BASE_SECONDS * 1000 * 2 ** (row.attempts - 1);
    return finish(ctx, row.id, {
      status: 'queued',
      nextAttemptAt: new Date(ctx.clock().getTime() + delayMs),
      error: `${failure.message} (attempt ${row.attempts} of ${config.SEND_MAX_ATTEMPTS})`,
    });
  }
  return finish(ctx, row.id, { status: 'failed', error: failure.message });
}

/** What a permanent error says about the member, kept so we stop trying. */
async function markMember(ctx: MessagingContext, row: MessageRow, code: number): Promise<void> {
  const now = ctx.clock();
  if (code === PERMANENT_ERROR_CODES.optedOut) await optOutPhone(ctx.db, row.toAddress, `twilio:${code}`, now);
  if (code === PERMANENT_ERROR_CODES.invalidNumber) await optOutPhone(ctx.db, row.toAddress, `twilio:${code} invalid number`, now);
  // Twilio says the WhatsApp window is closed: forget the last text, so the next ones use a template or SMS.
  if (code === PERMANENT_ERROR_CODES.outsideWhatsAppWindow) {
    await ctx.db.update(users).set({ lastInboundAt: null }).where(eq(users.phoneNumber, row.toAddress));
  }
}

async function finish(ctx: MessagingContext, id: number, values: Partial<typeof messages.$inferInsert>): Promise<void> {
  await ctx.db
    .update(messages)
    .set({ nextAttemptAt: null, ...values, updatedAt: sql`now()` })
    .where(eq(messages.id, id));
}
