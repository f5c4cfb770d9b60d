import { describe, expect, it } from 'vitest';
import { LIMITS } from '@loop/shared/constants';
import { newsletterTexts } from '../publishing/newsletter-texts';
import { lastCallText, reminderTemplateVariables, reminderText } from '../scheduling/reminder-text';
import { OWN_QUESTION_LIMITS } from '@loop/shared/reminder-questions';
import { replies } from './replies';
import { clip, listNames, templateVariable, TEXT_MAX_CHARS } from './text-limits';

// The longest of everything a person can type: names at their limits, and many of them.
const longName = (i: number) => `${String(i).padStart(3, '0')}${'ÿ'.repeat(LIMITS.loopName - 3)}`;
const manyLoops = Array.from({ length: 80 }, (_, i) => longName(i));
const firstName = '😀'.repeat(LIMITS.name / 2);
const ownQuestion = { text: 'ÿ'.repeat(OWN_QUESTION_LIMITS.maxChars), own: true };
const url = `https://${'x'.repeat(180)}.example.com/newsletters/${'a'.repeat(22)}`;

describe('every text Loop writes fits in 1,600 characters (Twilio 21617), at its longest', () => {
  const longest: Record<string, string> = {
    reminder: reminderText(firstName, manyLoops, ownQuestion),
    'reminder, one Loop': reminderText(firstName, [longName(1)], ownQuestion),
    'last call': lastCallText(firstName, manyLoops),
    newsletter: newsletterTexts.newsletter(longName(1), url).body,
    'sneak peek, 500 authors': newsletterTexts.sneakPeek(
      longName(1),
      '999 updates and 999 photos',
      Array.from({ length: 500 }, (_, i) => longName(i)),
      url,
    ).body,
    welcome: replies.welcome(longName(1), true),
    'reply: shared to 80 Loops': replies.shared(firstName, manyLoops, 10),
    'reply: unknown Loop': replies.unknownLoop('n'.repeat(1600), manyLoops),
    'reply: your Loops': replies.yourLoops(manyLoops),
    'reply: help': replies.help('x'.repeat(100)),
    'reply: opted out': replies.optedOut(),
    'reply: opted out by Loop': replies.loopOptedOut(),
    'reply: rejoin hint': replies.rejoinHint(),
  };
  it.each(Object.entries(longest))('%s', (_kind, text) => {
    expect(text.length).toBeLessThanOrEqual(TEXT_MAX_CHARS);
  });

  it('a long list says how many are left out', () => {
    expect(listNames(['Ada', 'Ben', 'Cleo'])).toBe('Ada, Ben and Cleo');
    expect(
      listNames(
        Array.from({ length: 15 }, (_, i) => `P${i}`),
        { maxNames: 3 },
      ),
    ).toBe('P0, P1, P2 and 12 others');
    expect(listNames(['Ada', 'Ben'], { maxNames: 1 })).toBe('Ada and 1 other');
  });
});

describe('template variables (Twilio: short, no newlines or runs of spaces)', () => {
  it('are one line of at most 200 characters', () => {
    const value = templateVariable(`Line one\n\nLine two\t\twith     spaces ${'word '.repeat(400)}`);
    expect(value).not.toMatch(/[\n\t]| {2}/);
    expect(value.length).toBeLessThanOrEqual(200);
    expect(value.startsWith('Line one Line two with spaces word')).toBe(true);
    expect(templateVariable('  ')).toBe('-');
    for (const v of Object.values(reminderTemplateVariables(firstName, manyLoops))) expect(v.length).toBeLessThanOrEqual(200);
  });

  it('clip never cuts an emoji in half', () => {
    expect(clip('😀😀😀', 4)).toBe('😀…');
  });
});
