import { describe, expect, it } from 'vitest';
import { MailWorkerFailure } from './mail-worker';
import { readReply } from './read-reply';
import { MAX_HEADER_BYTES, readReplyHeaders } from './reply-headers';

/** A message as a mail client writes it, CRLF line ends. */
const mime = (headers: string[], body: string) => Buffer.from([...headers, '', body].join('\r\n'));
/** readReplyHeaders, then readReply, as the listener reads a message. */
const read = (raw: Buffer) => readReply(raw, readReplyHeaders(raw)?.from ?? null);

describe('readReply', () => {
  it('reads an HTML-only reply: Apple Mail\'s <blockquote type="cite"> and "Sent from my iPhone" are left out', async () => {
    const reply = await read(
      mime(
        [
          'From: Carol Smith <Carol.Smith@iCloud.com>',
          'To: reply+x@replies.example.com',
          'Subject: Re: News',
          'MIME-Version: 1.0',
          'Content-Type: text/html; charset=utf-8',
        ],
        '<html><body>Cake for <b>Grandpa</b>!<div><br></div><div>Carol<br id="lineBreakAtBeginningOfSignature"><div dir="ltr">Sent from my iPhone</div>' +
          '<div dir="ltr"><br><blockquote type="cite">On 26 Nov 2026, at 09:00, Loop &lt;loop@replies.example.com&gt; wrote:<br><br></blockquote></div>' +
          '<blockquote type="cite"><div dir="ltr"><h1>The Smiths, November</h1><p>Grandpa: tomatoes.</p></div></blockquote></div></body></html>',
      ),
    );
    expect(reply).toMatchObject({
      from: 'carol.smith@icloud.com',
      subject: 'Re: News',
      text: 'Cake for Grandpa!\n\nCarol',
      attachments: [],
    });
  });

  it('keeps no tiny inline files (tracking pixels, signature icons) and no From with two addresses', async () => {
    const reply = await read(
      mime(
        ['From: a@example.com, b@example.com', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b"'],
        [
          '--b',
          'Content-Type: text/plain',
          '',
          'Hello',
          '--b',
          'Content-Type: image/gif',
          'Content-Transfer-Encoding: base64',
          '',
          'R0lGODlhAQABAAAAACw=',
          '--b--',
        ].join('\r\n'),
      ),
    );
    expect(reply).toMatchObject({ from: null, text: 'Hello', attachments: [] });
  });
});

describe('readReplyHeaders', () => {
  it('reads the From of the header alone: folded, with a display name; none with two From fields', () => {
    const body = Buffer.alloc(1024 * 1024, 'x');
    const raw = Buffer.concat([Buffer.from('Subject: Hi\r\nFrom: "Smith, Ann"\r\n <Ann.Smith@Gmail.com>\r\n\r\n'), body]);
    expect(readReplyHeaders(raw)?.from).toBe('ann.smith@gmail.com');
    expect(readReplyHeaders(raw)?.fields.get('subject')).toEqual(['Hi']);
    expect(readReplyHeaders(Buffer.from('From: a@example.com\r\nFrom: b@example.com\r\n\r\nHi'))?.from).toBeNull();
  });

  it('answers null for a header block larger than 256 KB, however the rest looks', () => {
    const huge = Buffer.from(`From: a@example.com\r\nX-Pad: ${'y'.repeat(MAX_HEADER_BYTES)}\r\n\r\nHi`);
    expect(readReplyHeaders(huge)).toBeNull();
  });
});

describe('reading within its budget (decision 0050)', () => {
  it('refuses with MailWorkerFailure a message with 3,000 nested parts, or one past its time budget', async () => {
    let nested = 'From: a@example.com\r\nMIME-Version: 1.0\r\n';
    for (let i = 0; i < 3000; i++) nested += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
    const refused = await readReply(Buffer.from(`${nested}Content-Type: text/plain\r\n\r\nHi\r\n`), 'a@example.com').catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(MailWorkerFailure);
    expect(refused).toMatchObject({ reason: 'unreadable', code: 'EMAXLEN' });
    const slow = await readReply(mime(['From: a@example.com'], 'Hello'), 'a@example.com', { budgetMs: 1 }).catch((e: unknown) => e);
    expect(slow).toMatchObject({ reason: 'budget' });
  });

  it('reads the words of a 20 MiB one-line reply up to the limit', async () => {
    const reply = await read(mime(['From: a@example.com', 'Content-Type: text/plain'], 'a'.repeat(20 * 1024 * 1024)));
    expect(reply.text).toBe('a'.repeat(10_000));
  });
});
