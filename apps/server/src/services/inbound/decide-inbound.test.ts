import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPT_OUT_PHRASES } from '../../messaging/opt-out-words';
import { decideInbound } from './decide-inbound';
import type { InboundText } from './inbound-text';
import { erasureCodeHash } from './erasure-code';
import type { SenderFacts } from './sender-facts';

const AT = new Date('2026-05-04T10:00:00Z');
const SECRET = 'x'.repeat(32);
const PHONE = '+15550001111';
const CODES = ['123456', '000000', '999999'];
const text = (body: string, extra: Partial<InboundText> = {}): InboundText => ({
  body,
  channel: 'sms',
  params: { Body: body, NumMedia: '0' },
  at: AT,
  simulated: false,
  keywordReplies: 'twilio',
  supportContact: 'help@loop.example',
  codeSecret: SECRET,
  ...extra,
});

const NAMES = ['Smith Family', 'smith family', 'Book Club'];
const facts = fc.record({
  optedOut: fc.boolean(),
  loops: fc.array(fc.record({ id: fc.nat(), name: fc.constantFrom(...NAMES), ownerName: fc.constant('Ann Owner') }), { maxLength: 2 }),
  invitations: fc.uniqueArray(
    fc.record({
      membershipId: fc.nat(),
      loopId: fc.nat(),
      name: fc.constantFrom(...NAMES),
      inviterName: fc.constantFrom('Alice Abbot', 'Mallory M'),
      inviterPhoneEnd: fc.constantFrom(null, '0101', '0199'),
      ownerName: fc.constant('Ann Owner'),
      withheld: fc.boolean(),
      reminderSchedule: fc.constant([]),
      frequency: fc.constant('weekly' as const),
    }),
    { selector: (i) => i.membershipId, maxLength: 4 },
  ),
  question: fc.option(fc.record({ membershipIds: fc.array(fc.nat(), { maxLength: 3 }), expiresAt: fc.date() }), { nil: null }),
  erasure: fc.option(
    fc.record({
      codeHash: fc.constantFrom(...CODES).map((code) => erasureCodeHash(PHONE, code, SECRET)),
      expiresAt: fc.integer({ min: -60_000, max: 60_000 }).map((ms) => new Date(AT.getTime() + ms)),
    }),
    { nil: null },
  ),
});
const sender = (
  f: fc.Arbitrary<Omit<SenderFacts, 'user'>> extends fc.Arbitrary<infer F> ? F : never,
  user: Partial<NonNullable<SenderFacts['user']>> = {},
): SenderFacts => ({
  ...f,
  user: { id: 1, firstName: 'Carol', phoneNumber: PHONE, passwordHash: null, ...user } as SenderFacts['user'],
});
const bodies = fc.constantFrom(
  'YES',
  'yes!',
  'JOIN',
  'YES\nSmith Family',
  'Smith Family: YES',
  'YES #bookclub',
  '1',
  '2',
  'Hello',
  'Yes we made it',
);

describe('decideInbound (pure)', () => {
  it('a YES or a number confirms at most one membership, an open one, and a withheld one only when named or picked', () => {
    fc.assert(
      fc.property(facts, bodies, (f, body) => {
        const outcome = decideInbound(text(body), sender(f));
        if (outcome.kind !== 'consent' || outcome.confirm === null) return;
        const invitation = f.invitations.find((i) => i.membershipId === outcome.confirm);
        expect(invitation).toBeDefined();
        const bare = /^(yes|join)!?$/i.test(body);
        if (invitation?.withheld) expect(bare).toBe(false);
        // A bare YES confirms only when it is the one invitation open.
        if (bare) expect(f.invitations).toHaveLength(1);
      }),
      { numRuns: 2000 },
    );
  });

  it('an opt-out in any listed words is never shared, whoever sends it', () => {
    fc.assert(
      fc.property(
        facts,
        fc.constantFrom(...OPT_OUT_PHRASES, 'Stop.', 'S T O P', 'opt-out', 'PARAR', 'Arrêt', '🛑', 'stop it', 'Take me out of this group'),
        fc.constantFrom('sms' as const, 'whatsapp' as const),
        (f, body, channel) => {
          expect(decideInbound(text(body, { channel }), sender(f)).kind).toBe('opt_out');
        },
      ),
    );
  });

  it('a number is a choice only while the question is open and the phone has not opted out', () => {
    const open = {
      optedOut: false,
      loops: [],
      invitations: [
        {
          membershipId: 7,
          loopId: 1,
          name: 'Smith Family',
          inviterName: 'Alice Abbot',
          inviterPhoneEnd: '0101',
          ownerName: 'Alice Abbot',
          withheld: false,
          reminderSchedule: [],
          frequency: 'weekly' as const,
        },
        {
          membershipId: 8,
          loopId: 2,
          name: 'Smith Family',
          inviterName: 'Mallory M',
          inviterPhoneEnd: '0199',
          ownerName: 'Mallory M',
          withheld: false,
          reminderSchedule: [],
          frequency: 'weekly' as const,
        },
      ],
      question: { membershipIds: [7, 8], expiresAt: new Date(AT.getTime() + 1000) },
      erasure: null,
    };
    expect(decideInbound(text('2'), sender(open))).toMatchObject({ kind: 'consent', confirm: 8 });
    // Otherwise a number is an ordinary text, which from someone only invited waits for their YES.
    expect(decideInbound(text('2', { at: new Date(AT.getTime() + 1000) }), sender(open)).kind).toBe('held_for_yes');
    expect(decideInbound(text('2'), sender({ ...open, question: null })).kind).toBe('held_for_yes');
    expect(decideInbound(text('3'), sender(open))).toMatchObject({ kind: 'consent', confirm: null, ask: [7, 8] });
  });

  it('DELETE erases only a member without an account, with the code texted to this phone, in time (decision 0045)', () => {
    const deletes = fc.constantFrom('DELETE', 'delete', ' Delete ', ...CODES.map((c) => `DELETE ${c}`), 'delete 12345', 'DELETE ALL');
    fc.assert(
      fc.property(facts, deletes, fc.boolean(), fc.boolean(), (f, body, hasAccount, known) => {
        const facts = known ? sender(f, hasAccount ? { passwordHash: 'argon2id$...' } : {}) : { ...sender(f), user: undefined };
        const outcome = decideInbound(text(body), facts);
        const code = /\d{6}/.exec(body)?.[0];
        const matches =
          code !== undefined &&
          f.erasure !== null &&
          f.erasure.expiresAt > AT &&
          f.erasure.codeHash === erasureCodeHash(PHONE, code, SECRET);
        if (outcome.kind === 'erase') {
          expect(known && !hasAccount && matches).toBe(true);
          expect(outcome.reply.kind).toBe('opt_out_notice');
        }
        if (known && !hasAccount && matches) expect(outcome.kind).toBe('erase');
        // Never shared, never a Loop's update: an answer, a new code, or the erasure.
        if (body.trim().toUpperCase() !== 'DELETE ALL' && !/12345$/.test(body))
          expect(['erase', 'erase_ask', 'answer']).toContain(outcome.kind);
        if (outcome.kind === 'erase_ask') expect(known && !hasAccount).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a spoofed DELETE with a guessed code, or a stray one, deletes nothing and asks again', () => {
    const open = { codeHash: erasureCodeHash(PHONE, '123456', SECRET), expiresAt: new Date(AT.getTime() + 60_000) };
    const base = { optedOut: false, loops: [], invitations: [], question: null, erasure: open };
    expect(decideInbound(text('DELETE'), sender(base)).kind).toBe('erase_ask');
    expect(decideInbound(text('DELETE 654321'), sender(base)).kind).toBe('erase_ask');
    expect(decideInbound(text('DELETE 123456', { codeSecret: 'y'.repeat(32) }), sender(base)).kind).toBe('erase_ask');
    expect(decideInbound(text('DELETE 123456', { at: new Date(AT.getTime() + 60_000) }), sender(base)).kind).toBe('erase_ask');
    expect(decideInbound(text('DELETE 123456'), sender(base)).kind).toBe('erase');
    expect(decideInbound(text('DELETE 123456'), sender(base, { phoneNumber: '+15550002222' })).kind).toBe('erase_ask');
  });
});
