import { describe, expect, it } from 'vitest';
import { parseKeyword } from './keywords';

describe('parseKeyword', () => {
  it.each(['STOP', 'stopall', 'Unsubscribe', 'END', 'quit', 'CANCEL', 'optout', 'Revoke'])('%s opts out', (word) => {
    expect(parseKeyword(` ${word} `)).toBe('opt_out');
  });
  it.each(['START', 'unstop'])('%s opts in', (word) => expect(parseKeyword(word)).toBe('opt_in'));
  it.each(['HELP', 'info'])('%s asks for help', (word) => expect(parseKeyword(word)).toBe('help'));
  it('LOOPS lists Loops', () => expect(parseKeyword('loops')).toBe('loops'));
  it('is only a keyword as the whole text', () => {
    expect(parseKeyword('please stop the rain')).toBeNull();
    expect(parseKeyword('We stopped at the lake')).toBeNull();
    // An opt-out in other words is one too (messaging/opt-out-words.test.ts, decision 0034).
    expect(parseKeyword('Stop!')).toBe('opt_out');
  });
  it("follows Twilio's OptOutType", () => {
    expect(parseKeyword('arrêt', 'STOP')).toBe('opt_out');
    expect(parseKeyword('go', 'START')).toBe('opt_in');
    expect(parseKeyword('?', 'HELP')).toBe('help');
  });
});
