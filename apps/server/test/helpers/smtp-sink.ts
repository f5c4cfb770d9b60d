import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the sink received: the envelope and the message as mailparser reads it. */
export interface ReceivedMail {
  envelopeTo: string[];
  parsed: ParsedMail;
  /** The message as sent, byte for byte. */
  source: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** How many e-mails arrived (parsed or not). */
  count: () => number;
  /** Answers the next RCPT TOs with these SMTP codes (e.g. 451, 550), one per attempt. */
  failNext: (...codes: number[]) => void;
  /** Resolves once `count` e-mails arrived (or rejects after `ms`). */
  waitFor: (count: number, ms?: number) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package): it accepts what Loop sends, parses
 * it with `mailparser`, and can refuse recipients with a chosen reply code. No STARTTLS, no AUTH:
 * a local sink. `keep: false` counts e-mails without parsing them (benches); `answerDelayMs` holds
 * each 250 back that long after the e-mail arrived.
 */
export async function startSmtpSink(options: { keep?: boolean; answerDelayMs?: number } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const failures: number[] = [];
  let count = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onRcptTo(_address, _session, callback) {
      const code = failures.shift();
      if (code === undefined) return callback();
      const error = Object.assign(new Error(code >= 500 ? '5.1.1 No such user here' : '4.2.1 Try again later'), { responseCode: code });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const done = () => {
          count++;
          for (const w of waiters.filter((w) => count >= w.count)) w.resolve();
          // `answerDelayMs`: the e-mail is taken, the 250 comes later (a send stays in flight).
          if (options.answerDelayMs) setTimeout(callback, options.answerDelayMs);
          else callback();
        };
        if (options.keep === false) return done();
        const source = Buffer.concat(chunks).toString('utf8');
        simpleParser(source).then(
          (parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed, source });
            done();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    count: () => count,
    failNext: (...codes) => failures.push(...codes),
    waitFor: (want, ms = 10_000) =>
      new Promise<void>((resolve, reject) => {
        if (count >= want) return resolve();
        const timer = setTimeout(() => reject(new Error(`the SMTP sink got ${count} e-mails, not ${want}`)), ms);
        waiters.push({
          count: want,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
