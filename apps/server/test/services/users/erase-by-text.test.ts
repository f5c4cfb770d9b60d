/**
 * DELETE by text (decision 0045): a member without an account erases what they sent, through the
 * real webhook, worker and `twilio` SDK against the fake Twilio. A bare DELETE texts back a code
 * and deletes nothing; only "DELETE <code>" from the same phone within 10 minutes erases. A
 * spoofed or unknown sender, a wrong or late code, and an account holder delete nothing.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { members, messages, updates, users } from '../../../src/db/schema';
import { isOptedOut } from '../../../src/messaging/opt-outs';
import { templateWriter } from '../../../src/publishing/template-writer';
import { publishNewsletter } from '../../../src/services/newsletters/publish-newsletter';
import { scrubErasedTexts } from '../../../src/services/users/scrub-erased-texts';
import { signUp } from '../../helpers/app';
import { addMemberAs, insertUpdate } from '../../helpers/loops';
import { createLoop, createPerson, testClock, useFakeTwilioApp } from '../../helpers/messaging';
import { postWebhook, smsParams } from '../../helpers/twilio-fixtures';

const clock = testClock();
const env = useFakeTwilioApp({ clock });
const db = () => env.db();

async function text(phone: string, body: string, options: { signature?: string | null } = {}) {
  const params = smsParams({ accountSid: env.fake.accountSid, from: phone, body });
  const res = await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken, ...options });
  await sweepUntilIdle(env.t.app.ctx);
  return res;
}
const sentTo = (phone: string) => env.fake.sent.filter((s) => s.params.To === phone).map((s) => s.params.Body ?? '');
const codeIn = (body: string | string[] | undefined) => /DELETE (\d{6})/.exec(String(body ?? ''))?.[1] ?? '';
const userExists = async (id: number) => (await db().select().from(users).where(eq(users.id, id))).length === 1;

async function memberWithNews() {
  const owner = await createPerson(db(), { firstName: 'Olga' });
  const cy = await createPerson(db(), { firstName: 'Cy' });
  const loop = await createLoop(db(), { name: 'Smith Family', memberIds: [owner.id, cy.id] });
  await insertUpdate(db(), loop.id, cy.id, 'Cy private news');
  await insertUpdate(db(), loop.id, owner.id, 'Olga news');
  return { owner, cy, loop };
}

describe('DELETE by text', () => {
  it('asks for the texted code, then deletes the member, what they sent and the newsletter lines, and never texts them again', async () => {
    const { cy, loop } = await memberWithNews();
    // The Loop and updates carry the database's time; the newsletter covers them.
    const published = await publishNewsletter(db(), {
      loopId: loop.id,
      now: new Date(Date.now() + 60_000),
      writer: templateWriter,
      publicUrl: 'http://localhost',
      send: true,
    });
    if (published.status !== 'sent') throw new Error('not sent');
    const page = `/newsletters/${published.newsletter.urlId}`;
    expect((await env.t.app.inject({ url: page })).body).toContain('Cy private news');

    await text(cy.phoneNumber, 'delete');
    // The answer a person waits for goes before the newsletter's link queued with it (decision 0051).
    const ask = sentTo(cy.phoneNumber).find((body) => String(body).startsWith('Loop: to delete'));
    expect(ask).toMatch(
      /^Loop: to delete your name, number and everything you sent to Loop, for good, reply DELETE \d{6} within 10 minutes\./,
    );
    expect(await userExists(cy.id)).toBe(true);
    expect(await db().select().from(updates).where(eq(updates.userId, cy.id))).toHaveLength(1);

    // A wrong code deletes nothing and asks again, with a new code: guessing gets nowhere.
    const code = codeIn(ask);
    const wrong = code === '111111' ? '222222' : '111111';
    await text(cy.phoneNumber, `DELETE ${wrong}`);
    expect(await userExists(cy.id)).toBe(true);
    const fresh = codeIn(sentTo(cy.phoneNumber).at(-1));
    expect(fresh).toMatch(/^\d{6}$/);

    // The old code no longer works; the new one does.
    if (fresh !== code) {
      await text(cy.phoneNumber, `DELETE ${code}`);
      expect(await userExists(cy.id)).toBe(true);
    }
    const latest = codeIn(sentTo(cy.phoneNumber).at(-1));
    await text(cy.phoneNumber, `Delete ${latest}`);
    expect(await userExists(cy.id)).toBe(false);
    expect(sentTo(cy.phoneNumber).at(-1)).toBe(
      "Loop: done. Everything you sent, your name and your number are deleted, and Loop won't text you again. Reply START to rejoin.",
    );
    expect(await db().select().from(updates).where(eq(updates.loopId, loop.id))).toHaveLength(1);
    const after = (await env.t.app.inject({ url: page })).body;
    expect(after).not.toContain('Cy private news');
    expect(after).toContain('Olga news');
    expect(await isOptedOut(db(), cy.phoneNumber)).toBe(true);
    // The texts that asked and confirmed keep no words; the last one's number goes once it is sent.
    const inbound = await db().select().from(messages).where(eq(messages.direction, 'inbound'));
    expect(inbound.filter((m) => m.fromAddress === cy.phoneNumber)).toEqual([]);
    await scrubErasedTexts(db());
    expect((await db().select().from(messages)).filter((m) => m.toAddress === cy.phoneNumber || m.body.includes('Cy private'))).toEqual([]);

    // Added again by the owner: no invitation goes out, nor any other text.
    const owner = await signUp(env.t.app, { firstName: 'Pat' });
    const ownLoop = await env.t.app.inject({
      method: 'POST',
      url: '/api/loops',
      headers: { cookie: owner.cookie },
      payload: { name: 'Pat Loop', vibe: ['family'], timeZone: 'UTC' },
    });
    const sentBefore = sentTo(cy.phoneNumber).length;
    await addMemberAs(env.t.app, owner.cookie, ownLoop.json<{ id: number }>().id, { phoneNumber: cy.phoneNumber, firstName: 'Cy' });
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(cy.phoneNumber)).toHaveLength(sentBefore);
  });

  it('a stray DELETE, or a code too late, deletes nothing', async () => {
    const { cy } = await memberWithNews();
    await text(cy.phoneNumber, 'DELETE');
    const code = codeIn(sentTo(cy.phoneNumber).at(-1));
    clock.advance(10 * 60_000 + 1000);
    await text(cy.phoneNumber, `DELETE ${code}`);
    expect(await userExists(cy.id)).toBe(true);
    expect(sentTo(cy.phoneNumber).at(-1)).toMatch(/reply DELETE \d{6} within 10 minutes/);
  });

  it('a spoofed or unknown sender with the code, and a request without Twilio signature, delete nothing', async () => {
    const { cy } = await memberWithNews();
    await text(cy.phoneNumber, 'DELETE');
    const code = codeIn(sentTo(cy.phoneNumber).at(-1));
    const stranger = '+16285550199';
    await text(stranger, `DELETE ${code}`);
    expect(sentTo(stranger).at(-1)).toBe('Loop has nothing from this number to delete.');
    const forged = await text(cy.phoneNumber, `DELETE ${code}`, { signature: 'forged' });
    expect(forged.statusCode).toBe(403);
    expect(await userExists(cy.id)).toBe(true);
    expect(await db().select().from(members).where(eq(members.userId, cy.id))).toHaveLength(1);
  });

  it('an account holder is sent to the website, where the password is asked', async () => {
    const holder = await signUp(env.t.app, { firstName: 'Hal' });
    await text(holder.user.phoneNumber, 'DELETE');
    expect(sentTo(holder.user.phoneNumber).at(-1)).toMatch(/^Loop: this number has a Loop account\. .*Delete my account\.$/);
    expect(await userExists(holder.user.id)).toBe(true);
  });

  it('HELP names DELETE', async () => {
    const { cy } = await memberWithNews();
    await text(cy.phoneNumber, 'HELP');
    // Twilio answers HELP on SMS by default; WhatsApp and the simulator get Loop's text. Check the wording itself.
    const { replies } = await import('../../../src/messaging/replies');
    expect(replies.help('help@loop.example.com')).toContain('DELETE to erase your texts');
    expect(replies.help('help@loop.example.com').length).toBeLessThanOrEqual(160);
  });
});
