// Reads e-mail off the main thread (decision 0050): a stranger's message decides how long mailauth
// and mailparser run (a 20 MiB line, thousands of nested parts), and on the main thread that time
// would stall every request, text and scheduled job. One job at a time; the parent ends this
// thread when a job's time budget is spent. DNS questions go to the parent, which answers them.
import { parentPort } from 'node:worker_threads';
import EmailReplyParser from 'email-reply-parser';
import { authenticate } from 'mailauth';
import { simpleParser } from 'mailparser';

const questions = new Map();
let asked = 0;

/** mailauth's resolver(name, type), answered by the parent. */
const resolver = (job) => (name, type) =>
  new Promise((resolve, reject) => {
    asked += 1;
    questions.set(asked, { resolve, reject });
    parentPort.postMessage({ job, dns: { id: asked, name, type } });
  });

/** SPF, DKIM and DMARC as plain facts (mailauth's result holds more than a message can carry). */
async function authenticateMessage(job, raw, options) {
  const result = await authenticate(raw, { ...options, resolver: resolver(job), disableArc: true, disableBimi: true });
  return {
    result: {
      spf: result.spf ? { result: result.spf.status.result, domain: result.spf.domain ?? '' } : null,
      dkim: result.dkim.results.map((r) => ({ result: r.status.result, aligned: Boolean(r.status.aligned) })),
      dmarc: result.dmarc
        ? { result: result.dmarc.status.result, domain: result.dmarc.domain ?? '', headerFrom: result.dmarc.status.header?.from ?? '' }
        : null,
    },
    transfer: [],
  };
}

/**
 * The reply's subject, Message-ID, own words and files. The text is cut to `sourceMaxChars`
 * before email-reply-parser reads it: its quoted-history rules take seconds on megabytes.
 */
async function readMessage(raw, options) {
  const mail = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  // Outlook's text part marks an inline picture with a "[cid:image001.jpg@...]" line.
  const body = (mail.text ?? '')
    .slice(0, options.sourceMaxChars)
    .replace(/\r\n?/g, '\n')
    .replace(/^\[cid:[^\]\n]*\]$/gm, '');
  const attachments = mail.attachments
    .filter((a) => a.content.length >= options.tinyAttachmentBytes)
    .map((a) => ({ contentType: a.contentType, bytes: new Uint8Array(a.content) }));
  return {
    result: {
      subject: (mail.subject ?? '').trim(),
      messageId: mail.messageId ?? null,
      text: new EmailReplyParser().read(body).getVisibleText(),
      attachments,
    },
    transfer: attachments.map((a) => a.bytes.buffer),
  };
}

parentPort.on('message', async (message) => {
  if (message.answer) {
    const { id, records, error } = message.answer;
    const question = questions.get(id);
    questions.delete(id);
    if (error) question?.reject(Object.assign(new Error(error.message), { code: error.code }));
    else question?.resolve(records);
    return;
  }
  const { job, kind, bytes, options } = message;
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const { result, transfer } = kind === 'authenticate' ? await authenticateMessage(job, raw, options) : await readMessage(raw, options);
    parentPort.postMessage({ job, result }, transfer);
  } catch (error) {
    parentPort.postMessage({ job, error: { message: error instanceof Error ? error.message : String(error), code: error?.code ?? null } });
  }
});
