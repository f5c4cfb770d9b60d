import { describe, expect, it } from 'vitest';
import { isReaction, reactedIssues, REACTION_WINDOW_MS } from './reaction-words';

// The table of decision 0056: a reaction is emoji alone, or up to five words of praise, thanks or
// laughter in the languages Loop reads; anything with news in it stays an update.
const REACTIONS = [
  '❤️',
  '👏👏👏',
  '😂😂',
  '🥰 ❤️!!',
  'Love it!!',
  'Love it ❤️',
  'So cute!',
  'Beautiful',
  'Thank you!',
  'Thanks for sharing',
  'Wow!!!',
  'Hahaha',
  'Me encanta ❤️',
  'Qué lindo!',
  "J'adore",
  'Trop mignon',
  'Adorei!',
  'Que lindo 😍',
  'Wunderschön!',
  'Danke!',
  'Bellissimo!',
  'Che bello',
];
const NEWS = [
  "Love it! We're moving to Denver",
  'So cute! Emma lost her first tooth today',
  'Beautiful day at the lake',
  'Thanks, the baby arrived at 3am',
  'Love it, see you on the 12th',
  'Great photos, can someone send me the recipe?',
  'Wow https://example.com/video',
  'Hello!',
  'We went to the lake',
  'Me encanta la nueva casa de Ana',
  '',
  '   ',
];

describe('isReaction: the table of decision 0056', () => {
  it.each(REACTIONS)('%j is a reaction', (body) => expect(isReaction(body)).toBe(true));
  it.each(NEWS)('%j is news', (body) => expect(isReaction(body)).toBe(false));
});

describe('reactedIssues: only within two days after a newsletter', () => {
  const at = new Date('2026-05-04T10:00:00Z');
  const loop = (sentAgoMs: number | null) => ({
    id: 1,
    name: 'Smiths',
    lastIssue: sentAgoMs === null ? null : { id: 9, sentAt: new Date(at.getTime() - sentAgoMs) },
  });
  it('a reaction an hour and two days after the issue answers it; three days after, or with no issue, it does not', () => {
    expect(reactedIssues([loop(60 * 60 * 1000)], 'Love it!!', at)).toHaveLength(1);
    expect(reactedIssues([loop(REACTION_WINDOW_MS)], 'Love it!!', at)).toHaveLength(1);
    expect(reactedIssues([loop(REACTION_WINDOW_MS + 1)], 'Love it!!', at)).toEqual([]);
    expect(reactedIssues([loop(null)], 'Love it!!', at)).toEqual([]);
    expect(reactedIssues([loop(60 * 60 * 1000)], 'Love it! We are moving', at)).toEqual([]);
  });
});
