import { connect, type Socket } from 'node:net';

export interface SmtpReply {
  code: number;
  text: string;
}

/** What a server answered at each step of one message (RFC 5321 section 3.3). */
export interface SmtpExchange {
  mailFrom: SmtpReply;
  rcpt: SmtpReply[];
  /** The answer after the message's final dot; undefined when no recipient was accepted. */
  data?: SmtpReply;
}

/**
 * Sends one message over a raw SMTP connection to 127.0.0.1, as a sending mail server does
 * (EHLO, MAIL FROM, RCPT TO each, DATA with dot-stuffing, QUIT), and returns every reply, so a
 * test sees exactly which command was refused and how.
 */
export async function sendSmtp(
  port: number,
  message: {
    from: string;
    to: string[];
    raw: string | Buffer;
    helo?: string;
    mailParams?: string;
    stopBeforeData?: boolean;
    /** `raw` is already as sent (CRLF, dot-stuffed, ending "\r\n.\r\n"): no work on it here. */
    onTheWire?: boolean;
  },
): Promise<SmtpExchange> {
  const socket = connect(port, '127.0.0.1');
  const read = replyReader(socket);
  try {
    await read();
    await command(socket, read, `EHLO ${message.helo ?? 'mail.example.net'}`);
    const mailFrom = await command(socket, read, `MAIL FROM:<${message.from}>${message.mailParams ? ` ${message.mailParams}` : ''}`);
    if (mailFrom.code >= 400) return { mailFrom, rcpt: [] };
    const rcpt: SmtpReply[] = [];
    for (const to of message.to) rcpt.push(await command(socket, read, `RCPT TO:<${to}>`));
    if (message.stopBeforeData || !rcpt.some((r) => r.code < 300)) return { mailFrom, rcpt };
    const go = await command(socket, read, 'DATA');
    if (go.code !== 354) return { mailFrom, rcpt, data: go };
    socket.write(message.onTheWire && Buffer.isBuffer(message.raw) ? message.raw : onTheWire(message.raw));
    const data = await read();
    return { mailFrom, rcpt, data };
  } finally {
    socket.end('QUIT\r\n');
    socket.destroy();
  }
}

/** One SMTP connection to 127.0.0.1, greeted and EHLO said, for a test that sends its own commands. */
export async function smtpSession(port: number): Promise<{ command: (line: string) => Promise<SmtpReply>; close: () => void }> {
  const socket = connect(port, '127.0.0.1');
  const read = replyReader(socket);
  await read();
  await command(socket, read, 'EHLO mail.example.net');
  return {
    command: (line) => command(socket, read, line),
    close: () => {
      socket.end('QUIT\r\n');
      socket.destroy();
    },
  };
}

/** A message as DATA sends it (RFC 5321 section 4.5.2): CRLF line ends, leading dots doubled, "." to end. */
export function onTheWire(raw: string | Buffer): Buffer {
  const text = Buffer.isBuffer(raw) ? raw.toString('latin1') : raw;
  const body = text.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
  return Buffer.from(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1');
}

async function command(socket: Socket, read: () => Promise<SmtpReply>, line: string): Promise<SmtpReply> {
  socket.write(`${line}\r\n`);
  return read();
}

/** Reads whole replies, multi-line ones ("250-...", "250 ...") joined. */
function replyReader(socket: Socket): () => Promise<SmtpReply> {
  let buffered = '';
  const replies: SmtpReply[] = [];
  const waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void }[] = [];
  let lines: string[] = [];
  const fail = (error: Error) => {
    for (const w of waiting.splice(0)) w.reject(error);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('the SMTP server closed the connection')));
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    let end: number;
    while ((end = buffered.indexOf('\r\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      lines.push(line.slice(4));
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)), text: lines.join('\n') };
      lines = [];
      const next = waiting.shift();
      if (next) next.resolve(reply);
      else replies.push(reply);
    }
  });
  return () => {
    const ready = replies.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}
