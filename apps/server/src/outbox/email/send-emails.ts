import { sql } from 'drizzle-orm';
import { mailReplyDomain, type Config } from '../../config';
import type { Db } from '../../db/client';
import { databaseUnavailable } from '../../errors';
import { emailSuppressions } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fromAddress, keepUnsubscribeTokens, messageIdOf, unsubscribeMailbox, unsubscribeUrl } from '../../mail/links';
import { emailMayBeSent, type EmailRaw } from '../../mail/outbox';
import { MAIL_SEND_TIMEOUT_MS, MailSendError, type MailTransport } from '../../mail/transport';
import type { MessageRow } from '../../messaging/context';
import { memberMayBeTexted } from '../../messaging/recipients';
import { finishAttempt, retryOrFail } from '../finish-attempt';
import type { Pacer } from '../pacer';
import { recordOutcome } from '../record-outcome';
import { releaseMessages } from '../release-messages';

export interface MailContext {
  db: Db;
  config: Config;
  clock: Clock;
  mailer: MailTransport;
}

/** E-mails one process has in flight at once (the SMTP pool has MAIL_POOL_CONNECTIONS connections). */
export const MAIL_CONCURRENCY = 16;
/** One pace for all of Loop's e-mail, across processes (sender_paces row "email"). */
export const MAIL_PACE_SENDER = 'email';
/** An e-mail goes out only while its lease has the send timeout and this much left. */
const LEASE_MARGIN_MS = 5_000;

const NOT_ALLOWED_ERROR =
  'Not sent: the address unsubscribed, bounced or is not confirmed, or the member left the Loop, after the e-mail was queued.';

/**
 * Sends claimed e-mail rows (the e-mail channel's claim, claimDue: `sending` under this process's lease), paced at
 * MAIL_RATE_PER_SECOND for every process together. Each is checked again at the moment it goes
 * (a suppression or an unsubscribe since it was queued stops it), sent with its headers, and
 * recorded: `sent`; a 4xx or a lost connection: queued again with backoff; a 5xx: `failed` and the
 * address marked bouncing (email_suppressions), so nothing more goes to it. When `signal` aborts,
 * sends under way finish and the rows not started are given back; when `abortSends` aborts too
 * (SEND_ABORT_AFTER_STOP_MS into a stop, as for texts), the sends still waiting for the SMTP
 * server are given up and their rows given back. A sent e-mail's outcome is written until the
 * database takes it (recordOutcome). Returns how many it sent.
 */
export async function sendClaimedEmails(
  ctx: MailContext,
  rows: MessageRow[],
  pacer: Pacer,
  signal?: AbortSignal,
  abortSends?: AbortSignal,
): Promise<number> {
  const queue = [...rows];
  const unsent: number[] = [];
  let sent = 0;
  const run = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      if (signal?.aborted) {
        unsent.push(row.id);
        continue;
      }
      await pacer.wait(MAIL_PACE_SENDER, signal);
      if (signal?.aborted) {
        unsent.push(row.id);
        continue;
      }
      // The database unreachable before the send (the check, the unsubscribe token): not sent, given back.
      const outcome = await deliver(ctx, row, abortSends).catch((error: unknown) => {
        if (databaseUnavailable(error)) return 'late' as const;
        throw error;
      });
      if (outcome === 'late' || outcome === 'stopped') unsent.push(row.id);
      if (outcome === 'sent') sent++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAIL_CONCURRENCY, rows.length) }, run));
  await recordOutcome(() => releaseMessages(ctx.db, 'outbound', unsent));
  return sent;
}

async function deliver(ctx: MailContext, row: MessageRow, abortSends?: AbortSignal): Promise<'sent' | 'failed' | 'late' | 'stopped'> {
  const { db, config } = ctx;
  if (!(await mayStillBeSent(db, row))) {
    await recordOutcome(() => finishAttempt(ctx.db, row, { status: 'failed', error: NOT_ALLOWED_ERROR }));
    return 'failed';
  }
  const leaseLeft = (row.nextAttemptAt?.getTime() ?? Infinity) - ctx.clock().getTime();
  if (leaseLeft < MAIL_SEND_TIMEOUT_MS + LEASE_MARGIN_MS) return 'late';
  await keepUnsubscribeTokens(db, config.SESSION_SECRET, [row.toAddress]);
  const raw = (row.raw ?? {}) as Partial<EmailRaw>;
  const headers = emailHeaders(config, row, parseHeaders(raw.headers));
  // In doubt (the last attempt's outcome was never written): SMTP has no way to ask whether the
  // receiving server took it, so it goes again with the same Message-ID, by which mail systems
  // drop a duplicate (decision 0064; docs/reliability.md says what remains).
  try {
    await ctx.mailer.send(
      {
        from: config.MAIL_FROM,
        to: row.toAddress,
        subject: raw.subject ?? '',
        text: row.body,
        html: raw.html ?? '',
        headers,
      },
      abortSends,
    );
  } catch (error) {
    // Given up as the process stops: the e-mail goes back to the outbox, its attempt not counted.
    if (abortSends?.aborted) return 'stopped';
    const failure =
      error instanceof MailSendError ? error : new MailSendError(error instanceof Error ? error.message : String(error), false);
    await recordOutcome(() => recordFailure(ctx, row, failure));
    return 'failed';
  }
  await recordOutcome(() =>
    finishAttempt(ctx.db, row, {
      status: 'sent',
      sentAt: ctx.clock(),
      error: null,
      fromAddress: fromAddress(config.MAIL_FROM),
      providerMessageId: headers['Message-ID'] ?? null,
      raw: { ...raw, headers: JSON.stringify(headers) },
    }),
  );
  return 'sent';
}

/**
 * The headers an e-mail goes out with: Message-ID (the same on every attempt), Date,
 * List-Unsubscribe with an https link, and a mailto (RFC 2369) only where the reply listener runs
 * to act on it (decision 0050), and List-Unsubscribe-Post for one-click (RFC 8058: Gmail and
 * Yahoo require both of bulk senders); an acknowledgement says it is one (`Auto-Submitted:
 * auto-replied`, RFC 3834 section 5), so that auto-responders do not answer it; and what the row
 * asked for (Reply-To).
 */
export function emailHeaders(
  config: Config,
  row: Pick<MessageRow, 'id' | 'toAddress' | 'kind'>,
  extra: Record<string, string>,
): Record<string, string> {
  const replyDomain = mailReplyDomain(config);
  const mailto = replyDomain
    ? `, <mailto:${unsubscribeMailbox(config.SESSION_SECRET, row.toAddress, replyDomain)}?subject=unsubscribe>`
    : '';
  return {
    'Message-ID': messageIdOf(config.SESSION_SECRET, row.id, config.MAIL_FROM),
    Date: new Date().toUTCString(),
    'List-Unsubscribe': `<${unsubscribeUrl(config, row.toAddress)}>${mailto}`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    ...(row.kind === 'reply_ack' ? { 'Auto-Submitted': 'auto-replied' } : {}),
    ...extra,
  };
}

function parseHeaders(json: string | undefined): Record<string, string> {
  if (!json) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * The moment of sending: not suppressed, confirmed (but for the confirmation itself), and a
 * newsletter only to an active member of a Loop that is not paused (the rule texts follow).
 */
async function mayStillBeSent(db: Db, row: MessageRow): Promise<boolean> {
  const member =
    row.kind === 'newsletter' && row.loopId !== null && row.userId !== null
      ? sql`and ${memberMayBeTexted(sql`${row.userId}::bigint`, sql`${row.loopId}::bigint`)}`
      : sql``;
  const result = await db.execute(
    sql`select 1 as ok where ${emailMayBeSent(sql`${row.toAddress}::text`, sql`${row.kind}::text`)} ${member}`,
  );
  return (result as { rows: unknown[] }).rows.length > 0;
}

async function recordFailure(ctx: MailContext, row: MessageRow, failure: MailSendError): Promise<void> {
  if (failure.permanent) {
    // RFC 5321 4.2.1: 5yz is a permanent refusal. The address bounces: nothing more goes to it, and its owner is shown why.
    await ctx.db
      .insert(emailSuppressions)
      .values({ address: row.toAddress, reason: 'bounced', detail: failure.message })
      .onConflictDoNothing({ target: emailSuppressions.address });
  }
  return retryOrFail(ctx, row, failure.message, !failure.permanent);
}
