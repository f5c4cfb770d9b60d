import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/**
 * The largest message the listener takes, as sent (base64 makes files a third larger): 25 MiB
 * holds a reply with ten phone photos, or a 16 MB video (the largest clip kept, the same as
 * WhatsApp's), and it is what Gmail and Outlook let a person attach (25 MB and 20 MB). It is
 * announced with SIZE (RFC 1870), so a sender learns it before sending, and a larger message is
 * refused with 552 5.3.4. The whole message is held in memory while it is read: MAX_CLIENTS
 * bounds that to a known amount.
 */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
/**
 * Recipients of one message: a reply goes to one member's address. Past it RCPT is answered
 * 452 4.5.3 (RFC 5321 section 4.5.3.1.10), and the sender sends to the rest in another message.
 */
export const MAX_RECIPIENTS = 5;
/**
 * Connections open at once; further ones are told to come back later (421). Each may hold a
 * message of up to 25 MiB and its parsed files, so together at most a few hundred MB.
 */
const MAX_CLIENTS = 4;

/**
 * A refusal with its SMTP reply: 4xx asks the sender to try again later, 5xx refuses for good.
 * The message starts with its RFC 3463 code ("5.7.1 ..."): smtp-server would pick one by the
 * reply code alone (5.1.1 for every 550), which is wrong for a refused sender.
 */
export class SmtpRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpRefusal';
  }
}

/** What the listener knows of a connection and its message so far. */
export interface SmtpSession {
  ip: string;
  helo: string;
  /** MAIL FROM; '' for a bounce (the null reverse-path). */
  mailFrom: string;
  /** RCPT TO addresses accepted so far, as written. */
  recipients: string[];
}

export interface SmtpHandlers {
  /** A message starts (MAIL FROM). Throw SmtpRefusal to refuse it. */
  onMailFrom: (session: SmtpSession) => Promise<void>;
  /** One RCPT TO: throw SmtpRefusal to refuse this recipient. */
  onRecipient: (address: string, session: SmtpSession) => Promise<void>;
  /** The whole message, within the size limit: resolving answers 250, SmtpRefusal its own reply. */
  onMessage: (raw: Buffer, session: SmtpSession) => Promise<void>;
  /** Anything else that went wrong: the sender is told to try again later (451). */
  onError: (error: unknown) => void;
}

export interface SmtpListener {
  port: number;
  /** Stops taking connections, waits for messages being handled, then closes the rest. */
  close: () => Promise<void>;
}

/**
 * An SMTP server of Loop's own (smtp-server) that takes mail for its reply addresses. No AUTH
 * (it is a destination, not a relay) and no STARTTLS: in front of the internet it sits behind the
 * operator's MX, or on port 25 with TLS ended before it (README, "Replies by e-mail").
 */
export async function startSmtpListener(
  options: { host: string; port: number; name: string; closeTimeoutMs?: number },
  handlers: SmtpHandlers,
): Promise<SmtpListener> {
  const working = new Set<Promise<void>>();
  const facts = (session: SMTPServerSession): SmtpSession => ({
    ip: session.remoteAddress,
    helo: session.hostNameAppearsAs ?? '',
    mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
    recipients: session.envelope.rcptTo.map((r) => r.address),
  });
  /** Runs a handler; its refusal or failure becomes the SMTP answer. */
  const answer = (work: () => Promise<void>, callback: (error?: Error | null) => void) => {
    const task = work().then(
      () => callback(),
      (error: unknown) => callback(smtpError(error, handlers.onError)),
    );
    working.add(task);
    void task.finally(() => working.delete(task));
  };
  const server = new SMTPServer({
    name: options.name,
    banner: 'Loop takes replies here',
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    maxRecipients: MAX_RECIPIENTS,
    maxClients: MAX_CLIENTS,
    socketTimeout: 60_000,
    closeTimeout: options.closeTimeoutMs ?? 5_000,
    logger: false,
    onMailFrom: (_address, session, callback) => answer(() => handlers.onMailFrom(facts(session)), callback),
    onRcptTo: (address, session, callback) => answer(() => handlers.onRecipient(address.address, facts(session)), callback),
    onData: (stream, session, callback) => {
      const pieces: Buffer[] = [];
      stream.on('data', (piece: Buffer) => {
        // Past the limit the rest is read and dropped; smtp-server answers 552 (rejectOversized).
        if (!stream.sizeExceeded) pieces.push(piece);
      });
      stream.once('end', () => {
        if (stream.sizeExceeded) return callback(null);
        answer(() => handlers.onMessage(Buffer.concat(pieces), facts(session)), callback);
      });
    },
  });
  server.on('error', handlers.onError);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      while (working.size > 0) await Promise.allSettled([...working]);
    },
  };
}

/** The error smtp-server answers with: a refusal's own code, else 451 (try again later: nothing is lost). */
function smtpError(error: unknown, onError: (error: unknown) => void): Error {
  if (error instanceof SmtpRefusal) return Object.assign(new Error(error.message), { responseCode: error.responseCode });
  onError(error);
  return Object.assign(new Error('4.3.0 Local error in processing; please try again later'), { responseCode: 451 });
}
