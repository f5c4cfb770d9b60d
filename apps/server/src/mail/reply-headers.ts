import addressparser from 'nodemailer/lib/addressparser';

/**
 * The largest header block read: Exchange Online's limit for a message's header (256 KB). Past
 * it a message is refused for good; the listener reads this much, never the body, before it
 * knows whether the sender is the member (decision 0050).
 */
export const MAX_HEADER_BYTES = 256 * 1024;

/** A message's top-level header fields, read without parsing its body. */
export interface ReplyHeaders {
  /** The From header's one address, lower-cased; null without one, with two From fields or two addresses. */
  from: string | null;
  /** Every field by lower-case name, unfolded (RFC 5322 section 2.2.3), in order. */
  fields: Map<string, string[]>;
}

/**
 * Reads the header block (up to the first empty line) of a message, or null when it is larger
 * than MAX_HEADER_BYTES. Cheap on any message: the body is never looked at.
 */
export function readReplyHeaders(raw: Buffer): ReplyHeaders | null {
  const window = raw.subarray(0, MAX_HEADER_BYTES + 4);
  const crlf = window.indexOf('\r\n\r\n');
  const lf = window.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : raw.length <= MAX_HEADER_BYTES ? raw.length : -1;
  if (end < 0 || end > MAX_HEADER_BYTES) return null;
  const fields = new Map<string, string[]>();
  let current: { name: string; value: string } | null = null;
  const keep = () => {
    if (!current) return;
    const values = fields.get(current.name) ?? [];
    values.push(current.value.trim());
    fields.set(current.name, values);
  };
  for (const line of raw.subarray(0, end).toString('utf8').split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && current) {
      current.value += line;
      continue;
    }
    keep();
    const colon = line.indexOf(':');
    current = colon > 0 ? { name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1) } : null;
  }
  keep();
  return { from: singleAddress(fields.get('from') ?? []), fields };
}

/** The one address of one From field (RFC 7489 section 6.6.1 refuses the rest). */
function singleAddress(values: string[]): string | null {
  if (values.length !== 1) return null;
  const addresses = addressparser(values[0] ?? '', { flatten: true }).filter((a) => a.address);
  return addresses.length === 1 ? (addresses[0]?.address ?? '').toLowerCase() || null : null;
}

/** Precedence values that mark mail no person wrote just now (RFC 3834 section 2, RFC 2076). */
const AUTOMATIC_PRECEDENCE = new Set(['bulk', 'auto_reply', 'junk', 'list']);
/** Subjects auto-responders write when they set none of the headers ("Automatic reply: ..."). */
const AUTOMATIC_SUBJECT = /^\s*(automatic reply|auto[- ]?reply|autoreply|out of (the )?office( reply| autoreply)?)\s*:/i;

/**
 * Whether a message was sent by a machine, not written by the member (decision 0050): a bounce
 * (the null reverse-path, RFC 5321 section 4.5.5), `Auto-Submitted` other than `no` (RFC 3834
 * section 5), `Precedence: bulk / auto_reply / junk / list`, the `X-Autoreply` and
 * `X-Autorespond` headers some responders write, or an out-of-office subject. Such a message is
 * never published and never answered: answering it is how two responders loop.
 */
export function isAutomatic(headers: ReplyHeaders, mailFrom: string): boolean {
  const first = (name: string) => (headers.fields.get(name)?.[0] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mailFrom === '') return true;
  if (headers.fields.has('auto-submitted') && first('auto-submitted') !== 'no') return true;
  if (AUTOMATIC_PRECEDENCE.has(first('precedence'))) return true;
  if (headers.fields.has('x-autoreply') || headers.fields.has('x-autorespond')) return true;
  return AUTOMATIC_SUBJECT.test(headers.fields.get('subject')?.[0] ?? '');
}
