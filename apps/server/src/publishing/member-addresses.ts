import { hasLink, hasPhoneNumber } from '@loop/shared/text';
import { readBlocks } from './render-markdown';
import { wordsOf, type WriterUpdate } from './writer';

/** What a newsletter may show only as a member's own words. */
export type AddressKind = 'link' | 'phone number' | 'e-mail address';

/** What was found, by kind only: the words around it may be a member's, and logs keep no member's words. */
export type ForeignAddress = AddressKind | 'link whose words hide where it goes';

const EMAIL = /[\p{L}\p{N}._%+-]+\s*(?:@|＠|\(at\)|\[at\])\s*[\p{L}\p{N}-]+(?:\s*[.。．]\s*[\p{L}\p{N}-]+)+/u;
// Format characters (zero-width space, word joiner, soft hyphen...) show nothing and split a
// "paypal\u200b.com" so no rule sees the address: they go before any check.
const FORMAT = /\p{Cf}/gu;
// Emphasis and code marks carry no address; a model may add or drop them around a member's words.
const MARKS = /[*_`~]/g;
const WRAPPING_QUOTES = /^["“”„'‘’«»]+|["“”„'‘’«»]+$/g;
const TRANSCRIBED = /\s*\(transcribed\)$/;
const CUT = /\s*(?:…|\.\.\.)$/;

/**
 * Links (bare domains too), phone numbers and e-mail addresses the model's newsletter shows that
 * are not a member's own words (OWASP LLM01, decision 0053). A block (paragraph, quote, heading,
 * list item) that shows one must be, word for word, part of what one member texted or said in a
 * voice memo: optionally in quotation marks, after "Name:", marked "(transcribed)" or cut with
 * "…", and nothing else. A clickable link must show the very address it goes to. So a note in
 * an update that talks the model into "[verify your account](https://evil.example/login)" or
 * "call 415-555-0101" fails, and a member's own link, quoted as they wrote it, stays.
 */
export function findForeignAddresses(markdown: string, updates: readonly WriterUpdate[]): ForeignAddress[] {
  const said = updates.map((u) => comparable(wordsOf(u))).filter((words) => words !== '');
  const names = new Set(updates.flatMap((u) => [u.author.firstName, `${u.author.firstName} ${u.author.lastName}`].map(comparable)));
  const found: ForeignAddress[] = [];
  for (const { text, links } of readBlocks(markdown)) {
    for (const link of links) if (!showsWhereItGoes(link.label, link.href)) found.push('link whose words hide where it goes');
    const kinds = addressKinds(text);
    if (kinds.length > 0 && !isMemberWords(text, said, names)) found.push(...kinds);
  }
  return found;
}

/** The kinds of address a piece of text shows, after NFKC and without format characters. */
export function addressKinds(text: string): AddressKind[] {
  const plain = text.replace(FORMAT, '').normalize('NFKC');
  const kinds: AddressKind[] = [];
  if (EMAIL.test(plain)) kinds.push('e-mail address');
  else if (hasLink(plain)) kinds.push('link');
  if (hasPhoneNumber(plain)) kinds.push('phone number');
  return kinds;
}

function isMemberWords(text: string, said: readonly string[], names: ReadonlySet<string>): boolean {
  let words = comparable(text).replace(TRANSCRIBED, '').replace(CUT, '');
  const label = /^([^:]{1,80}?)\s*:\s*/.exec(words);
  if (label?.[1] !== undefined && names.has(label[1])) words = words.slice(label[0].length);
  words = words.replace(WRAPPING_QUOTES, '').replace(CUT, '').trim();
  return words !== '' && said.some((s) => s.includes(words));
}

/** A link's words are its address ("https://ada.example/pics" to https://ada.example/pics), not "verify here". */
function showsWhereItGoes(label: string, href: string): boolean {
  const address = (s: string) =>
    comparable(s)
      .replace(/^(?:https?:\/\/|mailto:)/, '')
      .replace(/\/$/, '');
  return address(label) !== '' && address(label) === address(href);
}

/** Text as compared: NFKC, no format characters or emphasis marks, one space for any run of white space, lower case. */
function comparable(text: string): string {
  return text.replace(FORMAT, '').normalize('NFKC').replace(MARKS, '').replace(/\s+/g, ' ').trim().toLowerCase();
}
