import fc from 'fast-check';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { members, messages, updates, users } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { ingestInbound } from '../../../src/messaging/ingest-inbound';
import { isOptedOut, optOutPhone } from '../../../src/messaging/opt-outs';
import { handleInbound } from '../../../src/services/inbound/handle-inbound';
import { findReplyMember } from '../../../src/services/email-replies/find-reply-member';
import { receiveReply } from '../../../src/services/email-replies/receive-reply';
import { replyAddressFor } from '../../../src/services/email-replies/reply-address-for';
import { createLoop, createPerson, testClock, useFakeTwilioApp } from '../../helpers/messaging';
import { smsParams, whatsappParams } from '../../helpers/twilio-fixtures';

// The batch of plain texts (planText, applyOutcomes), the text at a time (handleInbound) and
// the e-mail reply (receiveReply) apply one decision, decideInbound, through one applyOutcome.
// Fed the same texts and facts, they must end the same: each text's status and reply, the
// updates in each Loop, memberships, STOP. Sender A's texts go through the worker (plain ones
// set-wise, the rest one at a time, facts read once per batch); sender B, a mirror of A, has each
// text handled alone by handleInbound, reading its facts afresh every time; a third, by e-mail.
const clock = testClock();
const env = useFakeTwilioApp({ clock });

const NAMES = ['Alpha', 'alpha', 'Beta Team', 'Gamma'];
/**
 * Words every path reads alike (decision 0055), the e-mail reply too: opt-outs in other languages
 * and wordings, HELP, texts held as unclear, and news that only contains a word.
 */
const WORDS_EVERY_PATH = [
  'PARAR',
  'ARRÊT',
  '🛑',
  'stop it',
  'Take me out of this group',
  'Stop texting me about Alpha',
  '✋',
  "we can't stop laughing",
  "don't stop",
  'help me please',
  'AYUDA',
  'We went to the lake',
  'Stop.',
];
const TEXTS = [
  'We went to the lake',
  'Hello!',
  'Alpha: picnic on Sunday',
  'news #beta-team',
  'Delta: hello',
  'YES',
  'yes',
  'YES Alpha',
  'JOIN Gamma',
  'Yes we made it home',
  '1',
  '2',
  '7',
  'Stop.',
  'STOP',
  'Please stop texting me',
  'We stopped at the lake',
  'START',
  'HELP',
  'LOOPS',
  '',
  ...WORDS_EVERY_PATH,
];
const world = fc.record({
  loops: fc.array(fc.record({ name: fc.constantFrom(...NAMES), membership: fc.constantFrom('active', 'pending', 'withheld', 'removed') }), {
    minLength: 1,
    maxLength: 3,
  }),
  optedOut: fc.boolean(),
  channel: fc.constantFrom('sms' as const, 'whatsapp' as const),
  texts: fc.array(fc.constantFrom(...TEXTS), { minLength: 1, maxLength: 5 }),
});
type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

async function build(w: World, ownerId: number) {
  const db = env.db();
  const sender = await createPerson(db, { firstName: 'Sender' });
  const loopIds: number[] = [];
  for (const l of w.loops) {
    const loop = await createLoop(db, { name: l.name, memberIds: [], creatorId: ownerId });
    if (l.membership !== 'removed') {
      await db.insert(members).values({
        loopId: loop.id,
        userId: sender.id,
        status: l.membership === 'active' ? 'active' : 'pending',
        invitedById: ownerId,
        invitedAt: clock(),
        invitationWithheld: l.membership === 'withheld',
      });
    }
    loopIds.push(loop.id);
  }
  if (w.optedOut) await optOutPhone(db, sender.phoneNumber, 'STOP', clock());
  return { phone: sender.phoneNumber, userId: sender.id, loopIds };
}

async function ingest(w: World, phone: string): Promise<number[]> {
  const ids: number[] = [];
  for (const body of w.texts) {
    const base = { accountSid: env.fake.accountSid, from: phone, body };
    const { id } = await ingestInbound(env.db(), w.channel === 'sms' ? smsParams(base) : whatsappParams(base), clock());
    if (id !== null) ids.push(id);
  }
  return ids;
}

/** What came of a sender's texts, with Loops by position so two mirrored senders compare. */
async function outcome(sender: { phone: string; userId: number; loopIds: number[] }, ids: number[]) {
  const db = env.db();
  const rows = await db.select().from(messages).where(inArray(messages.id, ids)).orderBy(asc(messages.id));
  const position = (loopId: number | null) => (loopId === null ? null : sender.loopIds.indexOf(loopId));
  const texts = [];
  for (const row of rows) {
    const [reply] = await db
      .select()
      .from(messages)
      .where(eq(messages.idempotencyKey, `reply:${row.id}`));
    const stored = await db.select().from(updates).where(eq(updates.messageId, row.id)).orderBy(asc(updates.loopId));
    texts.push({
      status: row.status,
      loop: position(row.loopId),
      // Each world has its own Loops: a Loop's number (said to tell lookalikes apart, decision 0053) is its place in the world.
      reply: reply
        ? { body: reply.body.replace(/Loop #(\d+)/g, (_, id: string) => `Loop #${position(Number(id))}`), kind: reply.kind }
        : null,
      updates: stored.map((u) => ({ loop: position(u.loopId), content: u.content })),
    });
  }
  const memberships = await db
    .select({ loopId: members.loopId, status: members.status })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(users.phoneNumber, sender.phone), inArray(members.loopId, sender.loopIds)));
  return {
    texts,
    memberships: memberships.map((m) => ({ loop: position(m.loopId), status: m.status })).sort((a, b) => (a.loop ?? 0) - (b.loop ?? 0)),
    optedOut: await isOptedOut(db, sender.phone),
  };
}

describe('one inbound decision (property)', () => {
  it('the batch and the text at a time end the same for the same texts and facts', async () => {
    const owner = await createPerson(env.db(), { firstName: 'Owner' });
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const a = await build(w, owner.id);
        const b = await build(w, owner.id);

        const aIds = await ingest(w, a.phone);
        await sweepUntilIdle(env.t.app.ctx);

        const bIds = await ingest(w, b.phone);
        const rows = await env.db().select().from(messages).where(inArray(messages.id, bIds)).orderBy(asc(messages.id));
        for (const row of rows) await handleInbound(env.t.app.ctx, row);
        // Texts held for a YES that came are handed back to the worker (releaseHeldTexts), on both sides.
        await sweepUntilIdle(env.t.app.ctx);

        expect(await outcome(a, aIds)).toEqual(await outcome(b, bIds));
      }),
      { numRuns: 30 },
    );
  });

  it('an e-mail reply ends as the same words texted do: shared, stopped or held, with the same statuses (decision 0055)', async () => {
    const owner = await createPerson(env.db(), { firstName: 'Owner' });
    const domain = 'replies.example.com';
    let sent = 0;
    // The texts and the e-mails each go through their own channel's inbound; both apply one decision (applyOutcome).
    const byEither = fc.record({
      loops: fc.constantFrom('active' as const, 'pending' as const).map((membership) => [{ name: 'Alpha', membership }]),
      optedOut: fc.boolean(),
      channel: fc.constant('sms' as const),
      texts: fc.array(fc.constantFrom(...WORDS_EVERY_PATH), { minLength: 1, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(byEither, async (w) => {
        const db = env.db();
        const byText = await build(w, owner.id);
        const byMail = await build(w, owner.id);
        const email = `mail${byMail.userId}@example.com`;
        await db.update(users).set({ email }).where(eq(users.id, byMail.userId));
        const [membership] = await db.select().from(members).where(eq(members.userId, byMail.userId));
        const address = await replyAddressFor(db, membership?.id ?? 0, domain);
        const member = await findReplyMember(db, address, domain);
        if (!member) throw new Error('no reply member');

        const textIds = await ingest(w, byText.phone);
        await sweepUntilIdle(env.t.app.ctx);
        for (const text of w.texts) {
          sent += 1;
          const reply = { from: email, subject: 'Re: news', messageId: `<${sent}@example.com>`, text, attachments: [] };
          const check = { verdict: 'pass' as const, reason: '', summary: '', fromDomain: email.split('@')[1] ?? '' };
          await receiveReply(env.t.app.ctx, { member, toAddress: address, reply, check, raw: Buffer.from(`${sent}`) });
        }
        const mailRows = await db
          .select({ id: messages.id })
          .from(messages)
          .where(and(eq(messages.channel, 'email'), eq(messages.direction, 'inbound'), eq(messages.userId, byMail.userId)))
          .orderBy(asc(messages.id));

        // The answers differ by channel on purpose (an e-mail that asks to stop is not confirmed); the rest is the same.
        const ended = async (sender: typeof byText, ids: number[]) => {
          const { texts, memberships, optedOut } = await outcome(sender, ids);
          return { texts: texts.map((t) => ({ status: t.status, updates: t.updates })), memberships, optedOut };
        };
        expect(
          await ended(
            byMail,
            mailRows.map((r) => r.id),
          ),
        ).toEqual(await ended(byText, textIds));
      }),
      { numRuns: 20 },
    );
  });
});
