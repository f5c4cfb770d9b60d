import nodemailer from 'nodemailer';
import type { Config } from '../config';

/** One e-mail as it leaves Loop: every header already chosen (send-emails.ts). */
export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** '' for a plain-text e-mail. */
  html: string;
  /** Message-ID, Date, List-Unsubscribe, Reply-To... as they go out. */
  headers: Record<string, string>;
}

/**
 * A refusal or failure of one send. `permanent`: the receiving side said no for good (SMTP 5xx):
 * not tried again, and the address is marked bouncing. Otherwise (4xx, a lost connection, a
 * timeout) it is tried again later.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode: number | null = null,
  ) {
    super(message);
  }
}

export interface MailTransport {
  /** 'smtp' sends for real; 'simulator' keeps the e-mail for the Mail Simulator and "sends" it at once. */
  readonly kind: 'smtp' | 'simulator';
  /**
   * Resolves when the receiving server took the e-mail; throws a MailSendError. `signal` gives the
   * send up (the process is stopping): it rejects at once, and the connection is left to close().
   */
  send(email: OutgoingEmail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/** How long one SMTP conversation may take before it counts as a temporary failure. */
export const MAIL_SEND_TIMEOUT_MS = 30_000;
/** SMTP connections one process keeps open (nodemailer's pool). */
export const MAIL_POOL_CONNECTIONS = 5;

/** The transport SMTP_URL asks for: nodemailer over SMTP, or without it the simulator. */
export function createMailTransport(config: Pick<Config, 'SMTP_URL'>): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL) : simulatorTransport();
}

/** The e-mail stays in `messages` (the Mail Simulator reads it there): nothing leaves the machine. */
function simulatorTransport(): MailTransport {
  return { kind: 'simulator', send: () => Promise.resolve(), close: () => {} };
}

/**
 * nodemailer over SMTP with pooled connections (https://nodemailer.com/smtp/pooled/). TLS as
 * the URL says: smtps:// is TLS from the first byte (port 465), smtp:// upgrades with STARTTLS
 * when the server offers it (nodemailer's default); `?requireTLS=true` refuses a server that does not.
 */
function smtpTransport(url: string): MailTransport {
  const parsed = new URL(url);
  const options: Record<string, unknown> = {
    pool: true,
    maxConnections: MAIL_POOL_CONNECTIONS,
    maxMessages: Infinity,
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : parsed.protocol === 'smtps:' ? 465 : 587,
    secure: parsed.protocol === 'smtps:',
    connectionTimeout: MAIL_SEND_TIMEOUT_MS,
    greetingTimeout: MAIL_SEND_TIMEOUT_MS,
    socketTimeout: MAIL_SEND_TIMEOUT_MS,
  };
  if (parsed.username) options.auth = { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) };
  for (const [key, value] of parsed.searchParams) options[key] = value === 'true' ? true : value === 'false' ? false : value;
  const transporter = nodemailer.createTransport(options);
  return {
    kind: 'smtp',
    async send(email, signal) {
      signal?.throwIfAborted();
      let onAbort = () => {};
      // nodemailer's sendMail takes no signal: the wait for it is what is given up.
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new MailSendError('Not sent: Loop stopped while the SMTP server had not answered', false));
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([
          aborted,
          transporter.sendMail({
            from: email.from,
            to: email.to,
            subject: email.subject,
            text: email.text,
            ...(email.html ? { html: email.html } : {}),
            // Message-ID and Date are ours (chosen once per row: a resend keeps them).
            messageId: email.headers['Message-ID'],
            date: email.headers.Date,
            headers: Object.fromEntries(Object.entries(email.headers).filter(([name]) => name !== 'Message-ID' && name !== 'Date')),
          }),
        ]);
      } catch (error) {
        if (error instanceof MailSendError) throw error;
        throw smtpError(error);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    close: () => transporter.close(),
  };
}

/** nodemailer's error as a MailSendError: 5xx permanent (RFC 5321 4.2.1), anything else temporary. */
function smtpError(error: unknown): MailSendError {
  const { responseCode, response, message } = error as { responseCode?: number; response?: string; message?: string };
  const text = (response ?? message ?? String(error)).slice(0, 500);
  if (typeof responseCode === 'number') return new MailSendError(`SMTP ${responseCode}: ${text}`, responseCode >= 500, responseCode);
  return new MailSendError(text, false);
}
