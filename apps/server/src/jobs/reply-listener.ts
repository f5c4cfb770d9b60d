import type { DNSResolver } from 'mailauth';
import { HOUR_MS } from '../lib/clock';
import type { Log } from '../lib/log';
import { hashToken } from '../lib/tokens';
import { authenticateSender } from '../mail/authenticate-sender';
import { MailWorkerFailure } from '../mail/mail-worker';
import { readReply, type ParsedReply } from '../mail/read-reply';
import { isAutomatic, readReplyHeaders } from '../mail/reply-headers';
import { SmtpRefusal, startSmtpListener, type SmtpListener } from '../mail/smtp-listener';
import type { MessagingContext } from '../messaging/context';
import { countAttempts } from '../services/attempts/count-attempts';
import { findReplyMember, type ReplyMember } from '../services/email-replies/find-reply-member';
import { receiveReply, sentByMember } from '../services/email-replies/receive-reply';
import { unsubscribeByLink, unsubscribeLinkIsValid, unsubscribeMailboxToken } from '../services/email/unsubscribe';

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
  const key = (kind: 'sender' | 'member', value: string) => hashToken(`mail-in:${kind}:${value}`, config.SESSION_SECRET);
  return startSmtpListener(
    { host: options.host, port: options.port, name: domain, ...(options.closeTimeoutMs ? { closeTimeoutMs: options.closeTimeoutMs } : {}) },
    {
      // Nothing is counted by the connecting address: behind an MX or relay every message comes
      // from one, and a stranger's refused messages would block every member's (decision 0050).
      onMailFrom: async () => {},
      onRecipient: async (address) => {
        const unsubscribe = unsubscribeMailboxToken(address, domain);
        const known = unsubscribe
          ? await unsubscribeLinkIsValid(db, config.SESSION_SECRET, unsubscribe)
          : (await findReplyMember(db, address, domain)) !== null;
        if (!known) throw new SmtpRefusal(550, '5.1.1 No such recipient here');
      },
      onMessage: async (raw, session) => {
        // Who the message says it is from, read from its header alone: nothing reads the body of
        // a message that is not from the member it is addressed to (decision 0050).
        // RFC 2369's mailto: the token is the authority, as the link's is; the message is not read.
        let unsubscribed = 0;
        for (const to of session.recipients) {
          const token = unsubscribeMailboxToken(to, domain);
          if (token && (await unsubscribeByLink(db, config.SESSION_SECRET, token))) unsubscribed += 1;
        }
        const recipients: { to: string; member: ReplyMember }[] = [];
        for (const to of session.recipients) {
          const member = await findReplyMember(db, to, domain);
          if (member) recipients.push({ to, member });
        }
        if (recipients.length === 0) {
          if (unsubscribed > 0) return;
          throw new SmtpRefusal(550, '5.1.1 No such recipient here');
        }
        const headers = readReplyHeaders(raw);
        if (!headers) throw new SmtpRefusal(554, '5.6.0 Not accepted: the message header is larger than 256 KB');
        // An out-of-office answer or a bounce: taken (a refusal would bounce back to the member)
        // and dropped, never published nor acknowledged (RFC 3834).
        if (isAutomatic(headers, session.mailFrom)) {
          options.log.info({ ip: session.ip }, 'e-mail reply dropped: sent automatically');
          return;
        }
        const theirs = recipients.filter((r) => sentByMember(r.member, headers.from));
        if (theirs.length === 0) {
          options.log.info({ ip: session.ip }, 'e-mail reply refused: not from the member');
          throw new SmtpRefusal(550, '5.7.1 Not accepted: the sender is not this member');
        }
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
        // Counted only now, by what the sender proved: its authenticated address, and the members
        // it reached as themselves. Refused messages count against no one (decision 0050).
        const [bySender, ...byMember] = await countAttempts(
          db,
          [key('sender', headers.from ?? ''), ...theirs.map((r) => key('member', String(r.member.memberId)))],
          clock(),
          HOUR_MS,
        );
        if ((bySender?.count ?? 0) > config.MAIL_INBOUND_PER_ADDRESS_PER_HOUR)
          throw new SmtpRefusal(451, '4.7.1 Too many messages from your address; please try again later');
        if (byMember.some((c) => c.count > config.MAIL_REPLIES_PER_MEMBER_PER_HOUR))
          throw new SmtpRefusal(451, '4.7.1 Too many messages to this recipient; please try again later');
        const reply = await readOrRefuse(raw, headers.from);
        const refusals: string[] = [];
        for (const { to, member } of theirs) {
          const outcome = await receiveReply(ctx, { member, toAddress: to, reply, check, raw });
          if (outcome.kind === 'refused') refusals.push(outcome.reason);
        }
        if (refusals.length < theirs.length) return;
        options.log.info({ ip: session.ip, auth: check.summary }, 'e-mail reply refused: not from the member');
        throw new SmtpRefusal(550, `5.7.1 Not accepted: ${refusals[0] ?? 'the sender is not this member'}`);
      },
      onError: (error) => options.log.error({ err: error }, 'the e-mail reply listener failed on a message; the sender will try again'),
    },
  );
}

/**
 * The reply read in its worker; a message that cannot be read (too many parts or nested too deep,
 * past the time or memory budget) is refused for good: it would fail the same way every time, and
 * a 4xx would have its sender try again for days (RFC 5321 section 4.2.1).
 */
async function readOrRefuse(raw: Buffer, from: string | null): Promise<ParsedReply> {
  try {
    return await readReply(raw, from);
  } catch (error) {
    if (!(error instanceof MailWorkerFailure) || error.reason === 'crashed') throw error;
    const why =
      error.code === 'EMAXLEN'
        ? 'it has too many parts or parts nested too deeply'
        : error.reason === 'unreadable'
          ? 'it is malformed'
          : 'it is too complex to read';
    throw new SmtpRefusal(554, `5.6.0 Not accepted: ${why}`);
  }
}
