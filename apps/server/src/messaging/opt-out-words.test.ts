import { describe, expect, it } from 'vitest';
import { isOptOutRequest, isTwilioOptOutWord, OPT_OUT_PHRASES, TWILIO_OPT_OUT_WORDS } from './opt-out-words';

// 47 CFR 64.1200(a)(10) (in force April 11, 2025): consent may be revoked "using any reasonable
// means"; replying "stop", "quit", "end", "revoke", "opt out", "cancel" or "unsubscribe" is
// reasonable by rule. Twilio's words: https://help.twilio.com/articles/223134027 and
// https://www.twilio.com/docs/messaging/tutorials/advanced-opt-out (the default opt-out keywords).
describe('isOptOutRequest: the words decision 0034 lists', () => {
  it.each(TWILIO_OPT_OUT_WORDS)('%s, in any case, with punctuation and spacing', (word) => {
    const spaced = word.split('').join(' ');
    for (const body of [word, word.toLowerCase(), ` ${word[0]}${word.slice(1).toLowerCase()}. `, `${word}!!`, spaced, `"${word}"`]) {
      expect(isOptOutRequest(body), body).toBe(true);
    }
  });

  it.each(OPT_OUT_PHRASES)('"%s", with "please" or "thanks" around it and any punctuation', (phrase) => {
    for (const body of [phrase, phrase.toUpperCase(), `Please ${phrase}.`, `${phrase}, thanks!`, `Hi, ${phrase} please`]) {
      expect(isOptOutRequest(body), body).toBe(true);
    }
  });

  it('the examples people sent: "Stop.", "Opt out", "Please stop texting me", "Don\'t text me", "STOP ALL", "opt-out"', () => {
    for (const body of [
      'Stop.',
      'Opt out',
      'Please stop texting me',
      "Don't text me",
      'STOP ALL',
      'opt-out',
      'Unsubscribe me',
      'Remove me',
      'leave me alone!',
    ]) {
      expect(isOptOutRequest(body), body).toBe(true);
    }
  });

  it('a sentence that only contains a word is news, not an opt-out', () => {
    for (const body of [
      'We stopped at the lake',
      'Stop by the house on Sunday',
      'The end of the school year!',
      "Grandma won't quit knitting",
      'Cancel the picnic, it is raining',
      'please stop the rain',
      'Remove the old photos from the album',
    ]) {
      expect(isOptOutRequest(body), body).toBe(false);
    }
  });
});

describe('isTwilioOptOutWord: what Twilio itself takes on SMS', () => {
  it('only a single word as the whole text ("Only single-word messages will trigger the block")', () => {
    expect(isTwilioOptOutWord(' stop ')).toBe(true);
    expect(isTwilioOptOutWord('Unsubscribe')).toBe(true);
    expect(isTwilioOptOutWord('Stop.')).toBe(false);
    expect(isTwilioOptOutWord('STOP PLEASE')).toBe(false);
    expect(isTwilioOptOutWord('Please stop texting me')).toBe(false);
  });
});
