import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, VIBES, WEEKDAYS } from '@loop/shared/constants';
import { uniquePhone, type TestApp } from '../helpers/app';
import { JPEG } from '../helpers/messaging';
import { simulatorForm } from '../helpers/simulator-form';
import { TWILIO_ENV } from '../fuzz/webhooks';
import { createWorld, type Role, type World } from '../fuzz/world';

/**
 * Every input limit (packages/shared LIMITS): a value at the limit is accepted, one past it is a
 * 400 (413 for bytes) whose message says which limit, and the refused request changes no rows.
 */
const world = {} as World;
let webhooks: TestApp;
beforeAll(async () => {
  Object.assign(world, await createWorld());
  webhooks = await world.t.rebuild(TWILIO_ENV);
});
afterAll(() => world.close());

const x = (n: number) => 'x'.repeat(n);
/** A new, valid email of exactly `n` characters (n >= 20): a long domain of short labels. */
function emailOf(n: number): string {
  const local = `m${Math.random().toString(36).slice(2, 10)}`;
  const domain = 'abcdefghi.'
    .repeat(30)
    .slice(0, n - local.length - 1 - '.org'.length)
    .replace(/\.$/, 'z');
  return `${local}@${domain}.org`;
}
/** A new, valid phone number written with spaces to exactly `n` characters. */
function phoneOf(n: number): string {
  const e164 = uniquePhone();
  return `${e164.slice(0, 2)}${' '.repeat(n - e164.length)}${e164.slice(2)}`;
}

async function call(role: Role, method: string, url: string, payload?: unknown, app: TestApp = world.app) {
  const cookie = await world.cookie(role);
  const options: InjectOptions = { method: method, url, headers: cookie ? { cookie } : {} };
  if (payload !== undefined) options.payload = typeof payload === 'string' ? payload : (payload as object);
  if (typeof payload === 'string') options.headers = { ...options.headers, 'content-type': 'application/json' };
  return app.inject(options);
}

/** Sends the over-limit request and checks: this status, this message, no row changed. */
async function refused(status: number, message: string, ...args: Parameters<typeof call>) {
  const before = await world.exactCounts();
  const res = await call(...args);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json<{ message: string }>().message).toBe(message);
  expect(await world.exactCounts()).toEqual(before);
}

async function accepted(...args: Parameters<typeof call>) {
  const res = await call(...args);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

const loopBody = (over: Record<string, unknown> = {}) => ({ name: 'Limits', vibe: ['family'], ...over });
const member = (over: Record<string, unknown> = {}) => ({ firstName: 'Ada', lastName: 'Lovelace', phoneNumber: uniquePhone(), ...over });

describe('request body size', () => {
  it(`refuses a JSON body over ${LIMITS.requestBytes.toLocaleString('en-US')} bytes with 413; at the limit it is read (and judged on its fields)`, async () => {
    const sized = (bytes: number) => {
      const shell = JSON.stringify(loopBody({ context: '' }));
      return shell.replace('"context":""', `"context":"${x(bytes - shell.length)}"`);
    };
    expect(sized(LIMITS.requestBytes + 1)).toHaveLength(LIMITS.requestBytes + 1);
    await refused(413, 'The request is too large.', 'owner', 'POST', '/api/loops', sized(LIMITS.requestBytes + 1));
    await refused(
      400,
      `Group context must be at most ${LIMITS.context} characters`,
      'owner',
      'POST',
      '/api/loops',
      sized(LIMITS.requestBytes),
    );
  });

  it(`refuses a JSON body nested more than ${LIMITS.jsonDepth} levels deep with 400 before parsing it; at the limit it is read`, async () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"name":"Limits","vibe":["family"]${'}'.repeat(levels)}`;
    await refused(
      400,
      `The request body is nested too deeply: at most ${LIMITS.jsonDepth} levels of arrays and objects.`,
      'owner',
      'POST',
      '/api/loops',
      nested(LIMITS.jsonDepth),
    );
    // At the limit the body is parsed, and judged on its fields.
    await refused(400, 'Loop name is required', 'owner', 'POST', '/api/loops', nested(LIMITS.jsonDepth - 1));
  });

  it(`refuses a Twilio webhook form over ${LIMITS.webhookBytes.toLocaleString('en-US')} bytes with 413`, async () => {
    const form = `Body=${x(LIMITS.webhookBytes)}`;
    const before = await world.exactCounts();
    const res = await webhooks.inject({
      method: 'POST',
      url: '/api/webhooks/twilio/messages',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
      payload: form,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBe('The request is too large.');
    expect(await world.exactCounts()).toEqual(before);
  });
});

describe('Loops', () => {
  it(`Loop name: at most ${LIMITS.loopName} characters, on create and on edit`, async () => {
    await accepted('owner', 'POST', '/api/loops', loopBody({ name: x(LIMITS.loopName) }));
    await refused(
      400,
      `Loop name must be at most ${LIMITS.loopName} characters`,
      'owner',
      'POST',
      '/api/loops',
      loopBody({ name: x(LIMITS.loopName + 1) }),
    );
    await accepted('owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, { name: x(LIMITS.loopName) });
    await refused(400, `Loop name must be at most ${LIMITS.loopName} characters`, 'owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, {
      name: x(LIMITS.loopName + 1),
    });
  });

  it(`Group context: at most ${LIMITS.context} characters, on create and on edit`, async () => {
    await accepted('owner', 'POST', '/api/loops', loopBody({ context: x(LIMITS.context) }));
    await refused(
      400,
      `Group context must be at most ${LIMITS.context} characters`,
      'owner',
      'POST',
      '/api/loops',
      loopBody({ context: x(LIMITS.context + 1) }),
    );
    await accepted('owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, { context: x(LIMITS.context) });
    await refused(400, `Group context must be at most ${LIMITS.context} characters`, 'owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, {
      context: x(LIMITS.context + 1),
    });
  });

  it(`Reminder schedule: at most ${LIMITS.reminderEntries} entries, one per weekday`, async () => {
    const everyDay = WEEKDAYS.map((day) => ({ day, time: '09:00' }));
    expect(everyDay).toHaveLength(LIMITS.reminderEntries);
    await accepted('owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, { reminderSchedule: everyDay });
    const eight = [...everyDay, { day: 'monday', time: '10:00' }];
    await refused(
      400,
      `Reminder schedule has at most ${LIMITS.reminderEntries} entries`,
      'owner',
      'PUT',
      `/api/loops/${world.refs.ownLoop}`,
      { reminderSchedule: eight },
    );
    await refused(
      400,
      `Reminder schedule has at most ${LIMITS.reminderEntries} entries`,
      'owner',
      'POST',
      '/api/loops',
      loopBody({ reminderSchedule: eight }),
    );
  });

  it(`Vibe: at most ${VIBES.length} entries`, async () => {
    await accepted('owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, { vibe: [...VIBES] });
    await refused(400, `Vibe has at most ${VIBES.length} entries`, 'owner', 'PUT', `/api/loops/${world.refs.ownLoop}`, {
      vibe: [...VIBES, 'family'],
    });
  });
});

describe('member fields (add member, join by invite)', () => {
  const cases: [string, string, number, (n: number) => string, string][] = [
    ['first name', 'firstName', LIMITS.name, x, `First name must be at most ${LIMITS.name} characters`],
    ['last name', 'lastName', LIMITS.name, x, `Last name must be at most ${LIMITS.name} characters`],
    ['email', 'email', LIMITS.email, emailOf, `Email must be at most ${LIMITS.email} characters`],
    ['phone number', 'phoneNumber', LIMITS.phone, phoneOf, 'Phone number must be a valid international number, like +1 415 555 0100'],
  ];
  it.each(cases)('%s (%s): at most %i characters', async (_label, field, limit, make, message) => {
    const atLimit = make(limit);
    expect(atLimit).toHaveLength(limit);
    await accepted('owner', 'POST', `/api/loops/${world.refs.ownLoop}/members`, member({ [field]: atLimit }));
    await refused(400, message, 'owner', 'POST', `/api/loops/${world.refs.ownLoop}/members`, member({ [field]: make(limit + 1) }));
    await refused(400, message, 'signedOut', 'POST', `/api/invites/${world.refs.invite}/join`, member({ [field]: make(limit + 1) }));
  });

  it(`member context: at most ${LIMITS.context} characters`, async () => {
    await accepted('owner', 'POST', `/api/loops/${world.refs.ownLoop}/members`, member({ context: x(LIMITS.context) }));
    await refused(
      400,
      `Member context must be at most ${LIMITS.context} characters`,
      'owner',
      'POST',
      `/api/loops/${world.refs.ownLoop}/members`,
      member({ context: x(LIMITS.context + 1) }),
    );
  });

  it('control characters in a name are refused, not stored', async () => {
    await refused(
      400,
      'First name must not contain control characters',
      'owner',
      'POST',
      `/api/loops/${world.refs.ownLoop}/members`,
      member({ firstName: 'A\u0000da' }),
    );
    await refused(400, 'Loop name must not contain control characters', 'owner', 'POST', '/api/loops', loopBody({ name: 'bell\u0007' }));
  });
});

describe('accounts', () => {
  it(`names ${LIMITS.name}, email ${LIMITS.email}, password ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters`, async () => {
    const account = (over: Record<string, unknown> = {}) => ({
      email: emailOf(40),
      password: 'long enough',
      firstName: 'Ada',
      lastName: 'L',
      phoneNumber: uniquePhone(),
      ...over,
    });
    await accepted(
      'signedOut',
      'POST',
      '/api/register',
      account({ firstName: x(LIMITS.name), lastName: x(LIMITS.name), password: x(LIMITS.passwordMax) }),
    );
    await refused(
      400,
      `First name must be at most ${LIMITS.name} characters`,
      'signedOut',
      'POST',
      '/api/register',
      account({ firstName: x(LIMITS.name + 1) }),
    );
    await refused(
      400,
      `Email must be at most ${LIMITS.email} characters`,
      'signedOut',
      'POST',
      '/api/register',
      account({ email: emailOf(LIMITS.email + 1) }),
    );
    await refused(
      400,
      `Password must be at least ${LIMITS.passwordMin} characters`,
      'signedOut',
      'POST',
      '/api/register',
      account({ password: x(LIMITS.passwordMin - 1) }),
    );
    await refused(
      400,
      `Password must be at most ${LIMITS.passwordMax} characters`,
      'signedOut',
      'POST',
      '/api/register',
      account({ password: x(LIMITS.passwordMax + 1) }),
    );
  });
});

describe('messages and newsletters', () => {
  it(`group message: at most ${LIMITS.message} characters`, async () => {
    const url = `/api/admin/loops/${world.refs.ownLoop}/bulk-sms`;
    await accepted('staff', 'POST', url, { message: x(LIMITS.message) });
    await refused(400, `Message must be at most ${LIMITS.message} characters`, 'staff', 'POST', url, { message: x(LIMITS.message + 1) });
  });

  it(`simulated text: at most ${LIMITS.message} characters and 10 photos`, async () => {
    const url = `/api/simulator/phones/${encodeURIComponent(world.people.member.phoneNumber)}/messages`;
    await accepted('member', 'POST', url, { body: x(LIMITS.message) });
    await refused(400, `A text can be at most ${LIMITS.message} characters`, 'member', 'POST', url, { body: x(LIMITS.message + 1) });
    // Photos are files (multipart), at most 10 with the attachments.
    const before = await world.exactCounts();
    const form = await simulatorForm(
      { body: 'hi' },
      Array.from({ length: 11 }, () => ({ contentType: 'image/jpeg', bytes: JPEG })),
    );
    const res = await world.app.inject({
      method: 'POST',
      url,
      headers: { cookie: (await world.cookie('member')) ?? '', ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toBe('At most 10 photos and attachments per text');
    expect(await world.exactCounts()).toEqual(before);
  });

  it(`newsletter draft: at most ${LIMITS.newsletter.toLocaleString('en-US')} characters`, async () => {
    const url = `/api/loops/${world.refs.ownLoop}/newsletters/${world.refs.draft}`;
    await accepted('staff', 'PUT', url, { content: x(LIMITS.newsletter) });
    await refused(400, `The newsletter is too long: at most ${LIMITS.newsletter.toLocaleString('en-US')} characters`, 'staff', 'PUT', url, {
      content: x(LIMITS.newsletter + 1),
    });
  });

  it(`admin search: at most ${LIMITS.search} characters`, async () => {
    await accepted('staff', 'GET', `/api/admin/loops?search=${x(LIMITS.search)}`);
    await refused(
      400,
      `Search must be at most ${LIMITS.search} characters`,
      'staff',
      'GET',
      `/api/admin/loops?search=${x(LIMITS.search + 1)}`,
    );
  });
});
