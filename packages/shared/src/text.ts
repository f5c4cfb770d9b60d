/**
 * Control characters a person never types: NUL (PostgreSQL text cannot store it, so it used to
 * fail as a 500) and the other C0 controls and DEL. Tab and line breaks stay allowed.
 */
export function hasNoControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** The message for a field that holds one, e.g. "Loop name must not contain control characters". */
export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/**
 * Only NUL, for text we wrote from members' texts (a newsletter draft): whatever else a phone
 * sent must not make the draft unsaveable.
 */
export function hasNoNul(value: string): boolean {
  return !value.includes('\u0000');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text with each lone surrogate (half of an emoji, from a broken client or a JSON "\udce5")
 * replaced by U+FFFD, as node-postgres would send it anyway. PGlite fails on a lone surrogate
 * after a non-ASCII character, and jsonb refuses one: either was a 500.
 */
export function toWellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd');
}

/** "A", "A and B", "A, B and C": every item, in order (see the server's listNames for a bounded list). */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "1 photo", "3 photos"; `many` for an irregular plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

// A scheme ("https://", "mailto:"), "www.", or a domain: a name, a dot and two or more letters
// ("evil.co", "bit.ly", "xn--..."), after NFKC (fullwidth dots and letters become plain ones);
// "[.]" and "(dot)" as people write a dot to get past filters.
const SCHEME = /[a-z][a-z0-9+.-]*:\/\/|\b(?:https?|mailto|javascript):|\bwww\s*[.。]/u;
const DOMAIN = /[\p{L}\p{N}_-][.。](?:xn--[a-z0-9-]+|\p{L}{2,})(?![\p{L}\p{N}])/u;
const HIDDEN_DOT = /[\p{L}\p{N}]\s*[[({]\s*(?:\.|dot)\s*[\])}]\s*[\p{L}\p{N}]/u;
// Link shorteners written without their dot ("bit ly").
const SHORTENER = /\b(?:bit\s*ly|tinyurl|tiny\s+cc|goo\s+gl|ow\s+ly|cutt\s+ly|rebrand\s+ly|shorturl|rb\s+gy)\b/u;
// Seven or more digits with only spaces, dots, dashes, slashes or brackets between them.
const DIGIT_RUN = /\+?\p{Nd}(?:[\s().\-/]*\p{Nd}){6,}/gu;
const YEAR_RANGE = /^(?:19|20)\d\d(?:19|20)\d\d$/;

// Characters that draw nothing: Unicode's format characters (category Cf: zero-width space U+200B,
// word joiner U+2060, soft hyphen U+00AD, bidi marks...) and the other default-ignorables (U+034F,
// Hangul fillers, variation selectors). "paypal\u200b.com" reads as paypal.com on a phone.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** A name as the checks read it: NFKC (fullwidth dots and digits become plain ones) without invisible characters. */
export function visibleText(value: string): string {
  return value.normalize('NFKC').replace(INVISIBLE, '');
}

/** Whether a name holds a link, a web address or a link shortener (Loop quotes names in its texts). */
export function hasLink(value: string): boolean {
  const text = visibleText(value).toLowerCase();
  return SCHEME.test(text) || DOMAIN.test(text) || HIDDEN_DOT.test(text) || SHORTENER.test(text);
}

/** Whether a name holds a phone number: 7 or more digits in a row, separators allowed ("2019-2024" is not one). */
export function hasPhoneNumber(value: string): boolean {
  for (const [run] of visibleText(value).matchAll(DIGIT_RUN)) {
    const digits = run.replace(/\D/g, '');
    if (!YEAR_RANGE.test(digits)) return true;
  }
  return false;
}

/** The message for a name with a link in it, e.g. "Loop name can't contain a link...". */
export function linkMessage(label: string): string {
  return `${label} can't contain a link or web address (such as example.com or bit.ly), since Loop puts it in texts. If it isn't one, put a space after the dot.`;
}

/** The message for a name with a phone number in it. */
export function phoneNumberMessage(label: string): string {
  return `${label} can't contain a phone number, since Loop puts it in texts.`;
}

// Names that claim to be a bank, a government body or a payment service (decision 0054): Loop
// quotes names in texts, where "IRS Final Notice" reads as the IRS. Named institutions and
// services are refused as whole words ("The IRSay family" is a name); a word that only says
// "bank" or "card" is refused beside an alarm word ("Chase Bank Fraud Alert"), so "Bank Street
// Book Club" and a person called Chase still work.
const AUTHORITY =
  /\b(?:irs|hmrc|fbi|cia|dhs|ssa|usps|dmv|medicare|medicaid|social security|internal revenue|inland revenue|homeland security|federal reserve|treasury dept|paypal|venmo|zelle|cash ?app|western union|moneygram|wells fargo|citibank|bank of america|barclays|hsbc|santander|american express|amex|mastercard|coinbase|apple pay|google pay)\b/u;
const MONEY_WORD = /\b(?:bank|banking|credit union|chase|visa|card|account|payment|tax|taxes|government|gov|police)\b/u;
const ALARM_WORD =
  /\b(?:fraud|alert|alerts|security|secure|verify|verification|suspended|suspension|locked|unlock|notice|refund|urgent|final|warning|billing|overdue|penalty|support|helpdesk|department|dept|official)\b/u;
// A web address spelled in words: "paypal dot com", "www dot", "dot c o m".
const SPELLED_LINK =
  /\bdot\s+(?:com|net|org|gov|edu|co|io|info|biz|me|app|ly|xyz|uk|us|c\s?o\s?m)\b|\bwww\s+dot\b|\b(?:dot|period)\s+\w+\s+slash\b/u;

/** Whether a name claims to be a bank, a government body or a payment service, or spells out a web address. */
export function claimsAuthority(value: string): boolean {
  const text = visibleText(value).toLowerCase();
  return AUTHORITY.test(text) || (MONEY_WORD.test(text) && ALARM_WORD.test(text)) || SPELLED_LINK.test(text);
}

/** The message for a name that claims to be an institution. */
export function authorityMessage(label: string): string {
  return `${label} can't name a bank, a government body or a payment service, or spell out a web address, since Loop puts it in texts where it could pass for them.`;
}
