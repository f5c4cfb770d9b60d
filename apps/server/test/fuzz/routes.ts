import fc from 'fast-check';
import { body, idSegment, query, role as anyRole, tokenSegment, weirdString, wrongValue } from './arbitraries';
import { rows, type Delta, type RouteFuzz } from './harness';
import * as v from './values';

const idSegmentNumber = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constant(-1));
import { PASSWORD, type Role, type World } from './world';

/** The Loop's own id or another one's, for every route under /api/loops/:id. */
const loopId = idSegment('ownLoop', 'otherLoop');

/** A count that must equal a number in the answer (texts queued, for example). */
function queued(table: 'messages', field: string, extra: Partial<Record<keyof Delta, number | number[]>> = {}) {
  return (delta: Delta, res: { json: () => unknown }) => {
    const count = (res.json() as Record<string, unknown>)[field];
    return rows({ ...extra, [table]: typeof count === 'number' ? count : NaN })(delta);
  };
}

/** Deleting a Loop takes its members, updates, photos, invites and newsletters, and nothing else. */
function loopDeleted(delta: Delta): string | null {
  if (delta.loops !== -1) return `loops changed by ${delta.loops}, expected -1`;
  for (const table of ['users', 'sessions', 'messages', 'phone_opt_outs'] as const)
    if (delta[table] !== 0) return `${table} changed by ${delta[table]}`;
  for (const table of ['members', 'updates', 'media', 'invites', 'newsletters'] as const)
    if (delta[table] > 0) return `${table} grew by ${delta[table]}`;
  return null;
}

/** A send time as typed: soon, far off, past, or not a time at all. */
function sendAt() {
  return fc.oneof(
    fc.integer({ min: -2, max: 60 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString()),
    v.text,
  );
}

/** A texted code as typed: six digits, or not quite. */
function code() {
  return fc.oneof(fc.stringMatching(/^\d{6}$/), fc.string({ maxLength: 12 }));
}

export function authRoutes(world: World): RouteFuzz[] {
  return [
    {
      route: 'POST /api/register',
      freshSession: true,
      body: body({
        email: v.email(world),
        password: fc.oneof(fc.constant(PASSWORD), fc.string({ minLength: 8, maxLength: 40 })),
        firstName: v.name,
        lastName: v.name,
        phoneNumber: v.phone(world),
        messagingPreference: v.preference,
      }),
      // Only a code text (none to a phone that opted out); the account comes with the code.
      success: rows({ messages: [0, 1] }),
    },
    { route: 'POST /api/register/resend', body: body({ phoneNumber: v.phone(world) }), success: rows({ messages: [0, 1] }) },
    // Answered from the browser's cookies alone: it writes nothing.
    { route: 'GET /api/register/pending', query: query(), success: rows() },
    {
      route: 'POST /api/register/verify',
      freshSession: true,
      body: body({ phoneNumber: v.phone(world), code: code() }),
      // A new account or a claimed text-only member, and a new session; the one the request came with ends.
      success: rows({ users: [0, 1], sessions: [0, 1] }),
    },
    {
      route: 'POST /api/password-reset',
      body: body({ login: fc.oneof(v.email(world), v.phone(world)) }),
      success: rows({ messages: [0, 1] }),
    },
    {
      route: 'POST /api/password-reset/confirm',
      freshSession: true,
      body: body({ login: fc.oneof(v.email(world), v.phone(world)), code: code(), password: fc.string({ minLength: 8, maxLength: 40 }) }),
      // Every session of the account ends and one starts: how many the account had is not known here.
      success: (delta) => (delta.sessions <= 1 ? rows({ sessions: delta.sessions })(delta) : `sessions grew by ${delta.sessions}`),
    },
    {
      route: 'POST /api/login',
      freshSession: true,
      body: body({ email: v.email(world), password: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 40 })) }),
      // A new session (the one the request came with, if any, is ended), or past the email's ceiling
      // of failed sign-ins a 202 and a code texted to the account's phone (decision 0028).
      success: (delta) => rows({ sessions: [0, 1], messages: delta.sessions === 0 ? [0, 1] : 0 })(delta),
    },
    { route: 'POST /api/logout', freshSession: true, body: body(), success: rows({ sessions: [0, -1] }) },
    // A signed challenge: nothing is stored until a form uses it.
    { route: 'GET /api/proof-of-work', query: query(), success: rows() },
    { route: 'GET /api/user', query: query(), success: rows() },
    {
      route: 'PUT /api/user',
      body: body({ firstName: v.name, lastName: v.name, email: v.email(world), messagingPreference: v.preference }),
      // A new address is only e-mailed its confirmation link (decision 0054).
      success: rows({ messages: [0, 1] }),
    },
    {
      route: 'POST /api/user/password',
      // The new password is the one the world signs in with (a change that succeeds leaves it usable), or
      // too short: half the cases skip argon2, which 1,000 cases of twice over would not finish in time.
      body: body({
        currentPassword: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 40 })),
        newPassword: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 7 })),
      }),
      // Every other session of the account ends; none starts.
      success: (delta) => (delta.sessions <= 0 ? rows({ sessions: delta.sessions })(delta) : `sessions grew by ${delta.sessions}`),
    },
    {
      route: 'POST /api/user/phone',
      body: body({ phoneNumber: v.phone(world), currentPassword: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 40 })) }),
      success: rows({ messages: [0, 1] }),
    },
    {
      // The phone line's PIN (decision 0067): the password in use first; a PIN is a column, no row.
      route: 'PUT /api/user/phone-pin',
      body: body({
        pin: fc.oneof(fc.constantFrom('4821', '0000'), fc.string({ maxLength: 6 })),
        currentPassword: fc.oneof(fc.constant(PASSWORD), fc.string({ maxLength: 40 })),
      }),
      success: rows(),
    },
    // Without this browser's code nothing checks out; with it the account's number changes, no row is added.
    { route: 'POST /api/user/phone/verify', body: body({ phoneNumber: v.phone(world), code: code() }), success: rows() },
    // Download my data and delete my account (decision 0045). The export's own table is not
    // counted here; a zip is built in the background either way.
    { route: 'GET /api/user/export', query: query(), success: rows() },
    { route: 'POST /api/user/export', body: body(), success: rows() },
    {
      route: 'GET /api/user/export/:exportId/:token',
      params: { exportId: idSegment('ownLoop', 'draft'), token: tokenSegment('mediaKey', 'sentUrlId') },
      query: query(),
      // No export of the fuzzed person is ever ready under these ids and tokens.
      success: () => 'an export was served for a guessed id and token',
    },
    { route: 'GET /api/user/owned-loops', query: query(), success: rows() },
    {
      route: 'DELETE /api/user',
      // Never the password: a random one must never delete the account.
      body: body({ password: fc.string({ maxLength: 40 }), deleteLoops: fc.array(idSegmentNumber, { maxLength: 3 }) }),
      success: () => 'an account was deleted without its password',
    },
  ];
}

export function loopRoutes(world: World): RouteFuzz[] {
  const loopFields = {
    name: v.name,
    context: v.text,
    vibe: v.vibe,
    frequency: v.frequency,
    reminderSchedule: v.reminderSchedule,
    timeZone: v.timeZone,
  };
  const memberFields = {
    firstName: v.name,
    lastName: v.name,
    email: v.email(world),
    phoneNumber: v.phone(world),
    messagingPreference: v.preference,
    context: v.text,
  };
  return [
    { route: 'GET /api/loops', query: query(), success: rows() },
    {
      route: 'POST /api/loops',
      body: body({ ...loopFields, creatorId: fc.oneof(v.seeded(world, 'id'), fc.constantFrom(0, -1)) }),
      success: rows({ loops: 1, members: 1, messages: [0, 1] }),
    },
    { route: 'GET /api/loops/:id', params: { id: loopId }, query: query(), success: rows() },
    { route: 'GET /api/loops/:id/newsletters', params: { id: loopId }, query: query(), success: rows() },
    { route: 'PUT /api/loops/:id', params: { id: loopId }, body: body(loopFields), success: rows() },
    // Decision 0043: the owner's own reminder questions and who has sent for the coming issue.
    { route: 'GET /api/loops/:id/reminder-questions', params: { id: loopId }, query: query(), success: rows() },
    {
      route: 'PUT /api/loops/:id/reminder-questions',
      params: { id: loopId },
      body: body({ questions: fc.oneof(fc.array(v.text, { maxLength: 25 }), v.text) }),
      success: rows(),
    },
    { route: 'GET /api/loops/:id/coming-issue', params: { id: loopId }, query: query(), success: rows() },
    // The Loop's cover photo: one of its photos by address, or an upload (the pipeline refuses what is not a photo).
    {
      route: 'PUT /api/loops/:id/cover',
      params: { id: loopId },
      body: body({
        mediaUrl: fc.oneof(v.text, fc.constant('/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')),
        photo: fc.oneof(v.text, fc.base64String({ maxLength: 200 })),
        alt: v.text,
      }),
      success: rows({ media: [-1, 0, 1] }),
    },
    { route: 'DELETE /api/loops/:id/cover', params: { id: loopId }, body: body(), success: rows({ media: [-1, 0] }) },
    { route: 'DELETE /api/loops/:id', params: { id: loopId }, body: body(), destructive: true, success: loopDeleted },
    { route: 'GET /api/loops/:id/invite', params: { id: loopId }, query: query(), success: rows() },
    { route: 'POST /api/loops/:id/invite', params: { id: loopId }, body: body(), success: rows({ invites: 1 }) },
    // The owner hands the Loop over to a member with an account (decision 0059).
    {
      route: 'PUT /api/loops/:id/owner',
      params: { id: loopId },
      body: body({ memberId: fc.integer({ min: 1, max: 60 }) }),
      destructive: true,
      success: rows({ members: [0, 1], messages: [0, 1] }),
    },
    {
      route: 'POST /api/loops/:id/members',
      params: { id: loopId },
      body: body(memberFields),
      success: rows({ members: 1, users: [0, 1], messages: [0, 1] }),
    },
    {
      route: 'PUT /api/loops/:id/members/:memberId',
      params: { id: loopId, memberId: idSegment('memberOfOwn', 'creatorOfOwn', 'memberOfOther') },
      body: body({ firstName: v.name, lastName: v.name, messagingPreference: v.preference, context: v.text }),
      success: rows(),
    },
    {
      // Membership consent (decision 0015): a pending member's invitation again (active members answer 409; once a day).
      route: 'POST /api/loops/:id/members/:memberId/invitation',
      params: { id: loopId, memberId: idSegment('memberOfOwn', 'creatorOfOwn', 'memberOfOther') },
      body: body(),
      success: rows({ messages: [0, 1] }),
    },
    {
      route: 'DELETE /api/loops/:id/members/:memberId',
      params: { id: loopId, memberId: idSegment('memberOfOwn', 'creatorOfOwn', 'memberOfOther') },
      destructive: true,
      success: rows({ members: -1 }),
    },
    { route: 'GET /api/invitations', query: query(), success: rows() },
    {
      // Decision 0035: only the phone's holder answers; a membership already active stays so (and
      // gets its one welcome text at most).
      route: 'POST /api/invitations/:membershipId/accept',
      params: { membershipId: idSegment('memberOfOwn', 'creatorOfOwn', 'memberOfOther') },
      body: body(),
      success: rows({ messages: [0, 1] }),
    },
    {
      route: 'POST /api/invitations/:membershipId/decline',
      params: { membershipId: idSegment('memberOfOwn', 'creatorOfOwn', 'memberOfOther') },
      body: body(),
      success: rows(),
    },
    {
      route: 'DELETE /api/loops/:id/updates/:updateId',
      params: { id: loopId, updateId: idSegment('ownerUpdate', 'memberUpdate', 'otherUpdate') },
      destructive: true,
      success: rows({ updates: -1, media: [0, -1] }),
    },
  ];
}

export function newsletterRoutes(): RouteFuzz[] {
  const newsletterId = idSegment('draft', 'sent', 'otherDraft');
  return [
    {
      route: 'POST /api/loops/:id/newsletters/generate',
      roles: mostlyStaff,
      params: { id: loopId },
      body: body(),
      success: rows({ newsletters: 1 }),
    },
    {
      route: 'GET /api/loops/:id/newsletters/:newsletterId/preview',
      roles: mostlyStaff,
      params: { id: loopId, newsletterId },
      success: rows(),
    },
    {
      route: 'PUT /api/loops/:id/newsletters/:newsletterId',
      roles: mostlyStaff,
      params: { id: loopId, newsletterId },
      body: body({ content: v.text }),
      success: rows(),
    },
    {
      route: 'POST /api/loops/:id/newsletters/:newsletterId/send',
      roles: mostlyStaff,
      params: { id: loopId, newsletterId },
      body: body(),
      destructive: true,
      success: queued('messages', 'textsQueued'),
    },
    // The owner's review of a scheduled draft and the editor's preview (decisions 0040, 0041).
    {
      route: 'POST /api/loops/:id/newsletters/:newsletterId/render',
      roles: mostlyStaff,
      params: { id: loopId, newsletterId },
      body: body({ content: v.text }),
      success: rows(),
    },
    { route: 'POST /api/loops/:id/newsletters/:newsletterId/approve', params: { id: loopId, newsletterId }, body: body(), success: rows() },
    {
      route: 'POST /api/loops/:id/newsletters/:newsletterId/move',
      params: { id: loopId, newsletterId },
      body: body({ sendAt: sendAt() }),
      success: rows(),
    },
    { route: 'POST /api/loops/:id/newsletters/:newsletterId/skip', params: { id: loopId, newsletterId }, body: body(), success: rows() },
    {
      route: 'POST /api/loops/:id/newsletters/:newsletterId/unapprove',
      params: { id: loopId, newsletterId },
      body: body(),
      success: rows(),
    },
    // A member's reaction on a sent issue's page (decision 0056): a tap adds it, a second removes it.
    {
      route: 'POST /api/loops/:id/newsletters/:newsletterId/reactions',
      params: { id: loopId, newsletterId },
      body: body({ emoji: fc.constantFrom('❤️', '😂', '👏', '🎉', 'x') }),
      success: rows(),
    },
    { route: 'GET /api/loops/:id/sneak-peek/preview', roles: mostlyStaff, params: { id: loopId }, query: query(), success: rows() },
    // Group messages of the owner and staff (decision 0042): texts queued now, none for a scheduled one.
    { route: 'GET /api/loops/:id/group-messages', params: { id: loopId }, query: query(), success: rows() },
    { route: 'POST /api/loops/:id/group-messages/preview', params: { id: loopId }, body: body({ message: v.text }), success: rows() },
    {
      route: 'POST /api/loops/:id/group-messages',
      params: { id: loopId },
      body: body({ message: v.text, sendAt: sendAt() }),
      success: queued('messages', 'queued'),
    },
    {
      route: 'POST /api/loops/:id/group-messages/:messageId/cancel',
      params: { id: loopId, messageId: idSegment('draft', 'sent', 'otherDraft') },
      body: body(),
      success: rows(),
    },
    {
      route: 'POST /api/loops/:id/sneak-peek',
      roles: mostlyStaff,
      params: { id: loopId },
      body: body(),
      success: queued('messages', 'textsQueued', { newsletters: 1 }),
      afterSuccess: (world) => world.addUpdates(),
    },
  ];
}

/** Staff most of the time: everyone else stops at the first check. */
const mostlyStaff = fc.oneof({ weight: 3, arbitrary: fc.constant<Role>('staff') }, { weight: 2, arbitrary: anyRole });

const page = fc.oneof(fc.integer({ min: -2, max: 300 }).map(String), fc.constantFrom('1.5', '1e3', 'x', '100001'));

/** A keyset cursor as the admin lists give out (base64url JSON of [list, page, key, id]), often subtly wrong. */
function cursor(lists: string[]) {
  const key = fc.oneof(
    fc.constantFrom(
      '2024-01-01T00:00:00.000000Z',
      '2024-02-30T00:00:00.000000Z',
      '9999-12-31T23:59:59.999999Z',
      '0000-01-01T00:00:00.000000Z',
      'fuzz',
      '',
      0,
      5,
      2 ** 31,
      2 ** 53 - 1,
      -1,
    ),
    v.name,
    wrongValue,
  );
  const id = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 - 1, 1.5));
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...lists), fc.oneof(fc.integer({ min: 1, max: 100_001 }), wrongValue), key, id)
        .map((parts) => Buffer.from(JSON.stringify(parts)).toString('base64url')),
    },
    { weight: 1, arbitrary: fc.oneof(fc.base64String({ maxLength: 60 }), fc.string({ maxLength: 30 })) },
  );
}

const adminLoopsQuery = fc
  .tuple(
    fc.constantFrom('recent', 'name', 'members'),
    fc.option(cursor(['loops:recent', 'loops:name', 'loops:members', 'newsletters']), { nil: undefined }),
    query({ search: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('Fuzz', '%', '_', '\\', "'")), page, pageSize: page }),
  )
  .map(([sort, after, rest]) => `?sort=${sort}${after === undefined ? '' : `&cursor=${after}`}${rest.replace(/^\?/, '&')}`);

export function adminRoutes(): RouteFuzz[] {
  return [
    { route: 'GET /api/admin/stats', roles: mostlyStaff, query: query(), success: rows() },
    {
      route: 'GET /api/admin/loops',
      roles: mostlyStaff,
      query: fc.oneof(
        adminLoopsQuery,
        query({ sort: fc.constantFrom('recent', 'name', 'members', 'oldest'), page, cursor: cursor(['loops:name']) }),
      ),
      success: rows(),
    },
    {
      route: 'GET /api/admin/newsletters',
      roles: mostlyStaff,
      query: query({ page, pageSize: page, cursor: cursor(['newsletters', 'loops:recent']) }),
      success: rows(),
    },
    { route: 'GET /api/admin/loops/:id', roles: mostlyStaff, params: { id: loopId }, success: rows() },
    { route: 'POST /api/admin/loops/:id/toggle-pause', roles: mostlyStaff, params: { id: loopId }, body: body(), success: rows() },
    {
      route: 'PUT /api/admin/loops/:id/frequency',
      roles: mostlyStaff,
      params: { id: loopId },
      body: body({ frequency: v.frequency }),
      success: rows(),
    },
    {
      route: 'POST /api/admin/loops/:id/bulk-sms',
      roles: mostlyStaff,
      params: { id: loopId },
      body: body({ message: v.text }),
      success: queued('messages', 'queued'),
    },
  ];
}

export function publicRoutes(world: World): RouteFuzz[] {
  const code = tokenSegment('invite', 'expiredInvite', 'otherInvite');
  const phone = fc.oneof(
    { weight: 4, arbitrary: v.seeded(world, 'phoneNumber').map((raw) => ({ raw })) },
    { weight: 1, arbitrary: tokenSegment('invite') },
    { weight: 1, arbitrary: weirdString.filter((s) => s.length > 0 && s.length < 2000).map((raw) => ({ raw })) },
  );
  return [
    { route: 'GET /api/invites/:code', params: { code }, success: rows() },
    {
      route: 'POST /api/invites/:code/join',
      params: { code },
      body: body({
        firstName: v.name,
        lastName: v.name,
        email: v.email(world),
        phoneNumber: v.phone(world),
        messagingPreference: v.preference,
      }),
      // The answer does not say whether the phone was in the Loop already (decision 0031).
      success: rows({ members: [0, 1], users: [0, 1], messages: [0, 1] }),
    },
    { route: 'GET /media/:key', params: { key: tokenSegment('mediaKey') }, success: rows() },
    // A voice memo for a call's <Play> (decision 0067): without the server's signature and a live expiry, nothing.
    { route: 'GET /api/webhooks/twilio/voice/media/:key', params: { key: tokenSegment('mediaKey') }, query: query(), success: rows() },
    {
      // One stored size of a photo (decision 0022).
      route: 'GET /media/:key/:width',
      params: {
        key: tokenSegment('mediaKey'),
        width: fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom('8', '320', '640', '1280').map((literal) => ({ literal })) },
          { weight: 2, arbitrary: weirdString.filter((s) => s.length > 0 && s.length < 3000).map((raw) => ({ raw })) },
        ),
      },
      success: rows(),
    },
    { route: 'GET /newsletters/:urlId', params: { urlId: tokenSegment('sentUrlId', 'draftUrlId') }, htmlErrors: true, success: rows() },
    // The issue's PDF (decision 0069): the page's own access rules, made-up ids the page's 404.
    { route: 'GET /newsletters/:urlId.pdf', params: { urlId: tokenSegment('sentUrlId', 'draftUrlId') }, htmlErrors: true, success: rows() },
    {
      route: 'GET /newsletters/:urlId/archive',
      params: { urlId: tokenSegment('sentUrlId', 'draftUrlId') },
      htmlErrors: true,
      success: rows(),
    },
    // A member's own link to the past issues (decision 0053): made-up and broken keys are the 404 page.
    {
      route: 'GET /newsletters/past/:key',
      params: { key: tokenSegment('sentUrlId', 'mediaKey') },
      htmlErrors: true,
      success: rows(),
    },
    { route: 'GET /api/config', query: query(), success: rows() },
    { route: 'GET /api/health', query: query(), success: rows() },
    { route: 'GET /api/openapi.json', query: query(), success: rows() },
    { route: 'GET /api/simulator/phones', query: query(), success: rows() },
    { route: 'GET /api/simulator/mail', query: query(), success: rows() },
    { route: 'GET /api/simulator/phones/:phone/messages', params: { phone }, success: rows() },
    {
      route: 'POST /api/simulator/phones/:phone/messages',
      params: { phone },
      body: body({
        body: v.text,
        channel: v.preference,
        attachments: fc.array(fc.constantFrom('contact', 'pdf', 'video'), { maxLength: 3 }),
      }),
      success: rows({ messages: 1 }),
    },
    {
      route: 'POST /api/:anything',
      params: { anything: tokenSegment('invite') },
      body: body(),
      success: () => 'an unknown path answered 2xx',
    },
  ];
}
