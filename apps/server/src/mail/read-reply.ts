import { inMailWorker } from './mail-worker';

/** The most of a reply's own words kept, in characters: a long letter, not a pasted book. */
export const REPLY_TEXT_MAX_CHARS = 10_000;
/**
 * The most of a reply's text read for its own words: the words come first (or between short
 * quotes), so four times what is kept loses nothing, and no quoted-history rule runs on megabytes.
 */
const REPLY_SOURCE_MAX_CHARS = 4 * REPLY_TEXT_MAX_CHARS;
/** Attached files smaller than this are tracking pixels, spacers and signature icons, not photos. */
const TINY_ATTACHMENT_BYTES = 2048;
/**
 * How long reading one message may take, in its worker: a 25 MiB message with ten photos takes
 * about a second. Past it the message is one that takes as long every time, and is refused for good.
 */
export const READ_BUDGET_MS = 20_000;

/** An e-mail reply as Loop reads it: who wrote it, the words they wrote this time, their files. */
export interface ParsedReply {
  /** The From header's address, lower-cased; null without one (or with more than one). */
  from: string | null;
  subject: string;
  messageId: string | null;
  /** The reply's own words: quoted history, "Sent from my iPhone" and the signature taken out. */
  text: string;
  /** Photos, voice memos, videos and other files, attached or inline, in the order they came. */
  attachments: { contentType: string; bytes: Buffer }[];
}

type WorkerReply = Omit<ParsedReply, 'from' | 'attachments'> & { attachments: { contentType: string; bytes: Uint8Array }[] };

/**
 * Parses a MIME message (mailparser) and keeps what the member wrote this time: the plain-text
 * part (or the HTML's text where there is none), cut to REPLY_SOURCE_MAX_CHARS, with the quoted
 * newsletter ("On ... wrote:", Outlook's "From: ... Sent: ..." block, "> " lines) and the
 * signature ("-- ", "Sent from my iPhone", "Get Outlook for iOS") removed by email-reply-parser
 * (decision 0049). It runs in a worker thread within READ_BUDGET_MS (decision 0050); a message it
 * cannot read in time, or at all, rejects with MailWorkerFailure. `from` is the header's address,
 * read before (reply-headers.ts).
 */
export async function readReply(raw: Buffer, from: string | null, options: { budgetMs?: number } = {}): Promise<ParsedReply> {
  const read = await inMailWorker<WorkerReply>('read', raw, {
    budgetMs: options.budgetMs ?? READ_BUDGET_MS,
    data: { sourceMaxChars: REPLY_SOURCE_MAX_CHARS, tinyAttachmentBytes: TINY_ATTACHMENT_BYTES },
  });
  return {
    from,
    subject: read.subject,
    messageId: read.messageId,
    text: tidy(read.text).slice(0, REPLY_TEXT_MAX_CHARS).trim(),
    attachments: read.attachments.map((a) => ({
      contentType: a.contentType,
      bytes: Buffer.from(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength),
    })),
  };
}

/** Lines without trailing blanks, at most one empty line in a row, no blank lines around. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
