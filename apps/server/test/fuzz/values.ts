import fc from 'fast-check';
import { FREQUENCIES, MESSAGING_PREFERENCES, VIBES, WEEKDAYS } from '@loop/shared/constants';
import { uniquePhone } from '../helpers/app';
import type { World } from './world';

/** Valid values of the API's fields (each body arbitrary mixes them with wrong ones). */

/** Any UTF-16 code units: NUL, control characters, lone surrogates (half an emoji). */
const codeUnits = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength });

export const name = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.constantFrom('Ada', 'Grace', 'Émile', '李', "O'Brien") },
  { weight: 1, arbitrary: codeUnits(20) },
);
export const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 2, arbitrary: fc.lorem({ maxCount: 30 }) },
  { weight: 1, arbitrary: codeUnits(50) },
);
export const preference = fc.constantFrom(...MESSAGING_PREFERENCES);
export const vibe = fc.oneof(
  { weight: 5, arbitrary: fc.subarray([...VIBES], { minLength: 1 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...VIBES, 'Family', 'evil', ''), { maxLength: 30 }) },
);
export const frequency = fc.constantFrom(...FREQUENCIES);
const validTime = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 11 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m * 5).padStart(2, '0')}`);
const anyTime = fc
  .tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
/** Mostly a good schedule (one time per weekday); else too many entries, a day twice, odd days and times. */
export const reminderSchedule = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.uniqueArray(fc.record({ day: fc.constantFrom(...WEEKDAYS), time: validTime }), { selector: (e) => e.day, maxLength: 7 }),
  },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({
        day: fc.oneof(fc.constantFrom(...WEEKDAYS), fc.constantFrom('Monday', 'mon', 'someday')),
        time: fc.oneof(validTime, anyTime, fc.constantFrom('9:00', '09:00:00', '24:00')),
      }),
      { maxLength: 30 },
    ),
  },
);
export const timeZone = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata') },
  { weight: 1, arbitrary: fc.constantFrom('Mars/Olympus', 'utc', '+02:00') },
);

/** A new phone most of the time (so adds and joins can succeed), else a seeded one or a badly formed one. */
/** A seeded person's field, read when the case is generated (the world is seeded after the specs are made). */
export function seeded<K extends 'id' | 'email' | 'phoneNumber'>(world: World, field: K) {
  return fc.constantFrom('owner', 'member', 'stranger', 'staff' as const).map((who) => world.people[who][field]);
}

export function phone(world: World) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(null).map(() => uniquePhone()) },
    { weight: 1, arbitrary: fc.constant(null).map(() => uniquePhone().replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3')) },
    { weight: 2, arbitrary: seeded(world, 'phoneNumber') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('+1', '+999999999999999', '12', 'whatsapp:+14155550100', '+44 20 7946 0958', '+1 415 555 0100 ext 5'),
    },
  );
}

export function email(world: World) {
  return fc.oneof(
    { weight: 2, arbitrary: fc.emailAddress() },
    { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9.]{1,20}$/).map((local) => `${local.replace(/^\.|\.$/g, 'x')}@example.org`) },
    { weight: 2, arbitrary: seeded(world, 'email') },
    { weight: 1, arbitrary: fc.constantFrom('', 'not-an-email', 'a@b', 'UPPER@EXAMPLE.COM', ' spaced@example.com ') },
  );
}
