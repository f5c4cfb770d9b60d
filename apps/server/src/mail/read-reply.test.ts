import { describe, expect, it } from 'vitest';
import { readReply } from './read-reply';

/** A message as a mail client writes it, CRLF line ends. */
const mime = (headers: string[], body: string) => Buffer.from([...headers, '', body].join('\r\n'));

describe('readReply', () => {
  it('reads an HTML-only reply: Apple Mail\'s <blockquote type="cite"> and "Sent from my iPhone" are left out', async () => {
    const reply = await readReply(
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
    const reply = await readReply(
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
