export type Keyword = 'opt_out' | 'opt_in' | 'help' | 'loops';

// Twilio's own opt-out and opt-in words (https://help.twilio.com/articles/223134027).
const WORDS: Record<string, Keyword> = {
  STOP: 'opt_out',
  STOPALL: 'opt_out',
  UNSUBSCRIBE: 'opt_out',
  END: 'opt_out',
  QUIT: 'opt_out',
  CANCEL: 'opt_out',
  OPTOUT: 'opt_out',
  REVOKE: 'opt_out',
  START: 'opt_in',
  UNSTOP: 'opt_in',
  // YES (Twilio's third opt-in word) is consent to join as well: consent.ts handles it.
  HELP: 'help',
  INFO: 'help',
  LOOPS: 'loops',
};

/**
 * The keyword a text is, if the whole text is one (any case, surrounding spaces ignored), or
 * what Twilio's Advanced Opt-Out already decided (`OptOutType`). A keyword never becomes an update.
 */
export function parseKeyword(body: string, optOutType?: string): Keyword | null {
  const type = optOutType?.trim().toUpperCase();
  if (type === 'STOP') return 'opt_out';
  if (type === 'START') return 'opt_in';
  if (type === 'HELP') return 'help';
  return WORDS[body.trim().toUpperCase()] ?? null;
}
