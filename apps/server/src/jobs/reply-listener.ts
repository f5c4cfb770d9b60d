import type { DNSResolver } from 'mailauth';
import { addressKey } from '../lib/address-key';
import { HOUR_MS } from '../lib/clock';
import type { Log } from '../lib/log';
import { hashToken } from '../lib/tokens';
import { authenticateSender } from '../mail/authenticate-sender';
import { readReply } from '../mail/read-reply';
import { SmtpRefusal, startSmtpListener, type SmtpListener } from '../mail/smtp-listener';
import type { MessagingContext } from '../messaging/context';
import { countAttempts } from '../services/attempts/count-attempts';
import { findReplyMember } from '../services/email-replies/find-reply-member';
import { receiveReply } from '../services/email-replies/receive-reply';

/**
 * Starts the SMTP listener that turns replies by e-mail into updates (decision 0049), on
 * MAIL_INBOUND_PORT: a recipient is accepted only if it is a member's reply address (any other
 * gets the same 550, so RCPT tells nothing more than yes or no); a message only if SPF, DKIM and
 * DMARC vouch for its From domain and the From is the member's own address. The rate limits count
 * in the database (attempt_counts), so every process together allows what one does.
 */
export async function startReplyListener(
  ctx: MessagingContext,
  options: { port: number; host: string; log: Log; resolver?: DNSResolver; closeTimeoutMs?: number },
): Promise<SmtpListener> {
  const { db, config, clock } = ctx;
  const domain = config.MAIL_REPLY_DOMAIN;
  // Keyed hashes, as the sign-in limits: the counts table names no address.
  const overLimit = async (kind: string, value: string, limit: number) => {
    const [count] = await countAttempts(db, [hashToken(`mail-in:${kind}:${value}`, config.SESSION_SECRET)], clock(), HOUR_MS);
    return (count?.count ?? 0) > limit;
  };
  return startSmtpListener(
    { host: options.host, port: options.port, name: domain, ...(options.closeTimeoutMs ? { closeTimeoutMs: options.closeTimeoutMs } : {}) },
    {
      onMailFrom: async (session) => {
        if (await overLimit('ip', addressKey(session.ip), config.MAIL_INBOUND_PER_ADDRESS_PER_HOUR)) {
          throw new SmtpRefusal(451, '4.7.1 Too many messages from your address; please try again later');
        }
      },
      onRecipient: async (address) => {
        const member = await findReplyMember(db, address, domain);
        if (!member) throw new SmtpRefusal(550, '5.1.1 No such recipient here');
        if (await overLimit('member', String(member.memberId), config.MAIL_REPLIES_PER_MEMBER_PER_HOUR)) {
          throw new SmtpRefusal(452, '4.7.1 Too many messages to this recipient; please try again later');
        }
      },
      onMessage: async (raw, session) => {
        const check = await authenticateSender(raw, {
          ip: session.ip,
          helo: session.helo,
          mailFrom: session.mailFrom,
          mta: domain,
          ...(options.resolver ? { resolver: options.resolver } : {}),
        });
        if (check.verdict === 'temperror')
          throw new SmtpRefusal(451, `4.7.0 The sender could not be checked now (${check.reason}); please try again later`);
        // RFC 7489 section 6.7: a message that fails DMARC is refused during the SMTP transaction,
        // so no bounce of ours reaches whoever was impersonated.
        if (check.verdict === 'fail') {
          options.log.info({ ip: session.ip, auth: check.summary }, 'e-mail reply refused: the sender is not authenticated');
          throw new SmtpRefusal(550, `5.7.1 Not accepted: ${check.reason}`);
        }
        const reply = await readReply(raw);
        const refusals: string[] = [];
        let accepted = 0;
        for (const to of session.recipients) {
          const member = await findReplyMember(db, to, domain);
          if (!member) continue;
          const outcome = await receiveReply(ctx, { member, toAddress: to, reply, check, raw });
          if (outcome.kind === 'refused') refusals.push(outcome.reason);
          else accepted += 1;
        }
        if (accepted > 0) return;
        options.log.info({ ip: session.ip, auth: check.summary }, 'e-mail reply refused: not from the member');
        throw new SmtpRefusal(550, refusals.length > 0 ? `5.7.1 Not accepted: ${refusals[0]}` : '5.1.1 No such recipient here');
      },
      onError: (error) => options.log.error({ err: error }, 'the e-mail reply listener failed on a message; the sender will try again'),
    },
  );
}
