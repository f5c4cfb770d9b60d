import EmailReplyParser from 'email-reply-parser';
import { simpleParser } from 'mailparser';

/** The most of a reply's own words kept, in characters: a long letter, not a pasted book. */
export const REPLY_TEXT_MAX_CHARS = 10_000;
/** Attached files smaller than this are tracking pixels, spacers and signature icons, not photos. */
const TINY_ATTACHMENT_BYTES = 2048;

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

/**
 * Parses a MIME message (mailparser) and keeps what the member wrote this time: the plain-text
 * part (or the HTML's text where there is none), with the quoted newsletter ("On ... wrote:",
 * Outlook's "From: ... Sent: ..." block, "> " lines) and the signature ("-- ", "Sent from my
 * iPhone", "Get Outlook for iOS") removed by email-reply-parser (decision 0049).
 */
export async function readReply(raw: Buffer): Promise<ParsedReply> {
  const mail = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const addresses = mail.from?.value.filter((a) => a.address) ?? [];
  const from = addresses.length === 1 ? (addresses[0]?.address ?? '').toLowerCase() : null;
  // Outlook's text part marks an inline picture with a "[cid:image001.jpg@...]" line.
  const body = (mail.text ?? '').replace(/\r\n?/g, '\n').replace(/^\[cid:[^\]\n]*\]$/gm, '');
  const visible = new EmailReplyParser().read(body).getVisibleText();
  return {
    from,
    subject: (mail.subject ?? '').trim(),
    messageId: mail.messageId ?? null,
    text: tidy(visible).slice(0, REPLY_TEXT_MAX_CHARS).trim(),
    attachments: mail.attachments
      .filter((a) => a.content.length >= TINY_ATTACHMENT_BYTES)
      .map((a) => ({ contentType: a.contentType, bytes: a.content })),
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
