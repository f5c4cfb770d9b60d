import { readRequest } from '../../messaging/opt-out-words';

export type Keyword = 'opt_out' | 'opt_in' | 'help' | 'loops' | 'erase' | 'pin';

// Twilio's opt-in and help words (https://help.twilio.com/articles/223134027); opt-out and help
// words and phrases in every language Loop reads are messaging/opt-out-words.ts (decision 0055).
const WORDS: Record<string, Keyword> = {
  START: 'opt_in',
  UNSTOP: 'opt_in',
  // YES (Twilio's third opt-in word) is consent to join as well: consent.ts handles it.
  HELP: 'help',
  INFO: 'help',
  LOOPS: 'loops',
};

/**
 * DELETE, alone or with the code its confirmation texted (decision 0045): a member without an
 * account erases what they sent. Any case, spaces around.
 */
const ERASE = /^\s*delete(?:\s+(\d{6}))?\s*$/i;

/** "PIN 4821": the phone line's PIN, set by text (decision 0067). Any case, spaces around. */
const PIN = /^\s*pin\s*[:#-]?\s*([0-9]{4})\s*$/i;

/** The digits of a "PIN 4821", or null. */
export function phonePinIn(body: string): string | null {
  return PIN.exec(body)?.[1] ?? null;
}

/** The code of a "DELETE 123456", or null (a bare DELETE asks for one). */
export function erasureCodeIn(body: string): string | null {
  return ERASE.exec(body)?.[1] ?? null;
}

/**
 * The keyword a text is, if the whole text is one (any case, surrounding spaces ignored; an
 * opt-out or a call for help in any of the words readRequest knows), or what Twilio's Advanced
 * Opt-Out already decided (`OptOutType`). A keyword never becomes an update.
 */
export function parseKeyword(body: string, optOutType?: string): Keyword | null {
  const type = optOutType?.trim().toUpperCase();
  if (type === 'STOP') return 'opt_out';
  if (type === 'START') return 'opt_in';
  if (type === 'HELP') return 'help';
  const request = readRequest(body);
  if (request === 'opt_out') return 'opt_out';
  if (ERASE.test(body)) return 'erase';
  if (PIN.test(body)) return 'pin';
  if (request === 'help') return 'help';
  return WORDS[body.trim().toUpperCase()] ?? null;
}

/**
 * Whether Twilio answered a START or HELP itself: on SMS unless TWILIO_KEYWORD_REPLIES=loop, and
 * where Advanced Opt-Out tagged it (`OptOutType`), likewise. With `loop` the operator cleared
 * those replies in Advanced Opt-Out (README), which still tags the words: Loop answers.
 */
export function twilioAnsweredKeyword(text: {
  channel: 'sms' | 'whatsapp' | 'email';
  params: Record<string, string>;
  keywordReplies: 'twilio' | 'loop';
}): boolean {
  const tagged = (text.params.OptOutType?.trim() ?? '') !== '';
  return text.keywordReplies === 'twilio' && (text.channel === 'sms' || tagged);
}
