/**
 * Every WhatsApp template Loop sends has fixed words around its variables, and every text is
 * queued with exactly its template's variables (decision 0060).
 *
 * - [text] https://www.twilio.com/docs/content/twilio-text: "If the template's body starts or ends
 *   with a variable or has two variables next to each other, the template won't be approved".
 * - [variables] https://www.twilio.com/docs/content/using-variables-with-content-api: numbered
 *   variables {{1}}, {{2}}...; a sample for each; ContentVariables at send time (JSON object).
 * - [send] https://www.twilio.com/docs/whatsapp/tutorial/send-whatsapp-notification-messages-templates:
 *   outside the 24-hour window, ContentSid and ContentVariables instead of Body.
 */
import { describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { enqueueText } from '../../src/messaging/outbox';
import { replies } from '../../src/messaging/replies';
import { placeholdersOf, renderWhatsappTemplate, WHATSAPP_TEMPLATES } from '../../src/messaging/whatsapp-templates';
import { newsletterTexts } from '../../src/publishing/newsletter-texts';
import { reminderTemplateVariables } from '../../src/scheduling/reminder-text';
import { signUp } from '../helpers/app';
import { createLoopAs } from '../helpers/loops';
import { createPerson, testClock, useFakeTwilioApp } from '../helpers/messaging';

const TEMPLATE = `HX${'7'.repeat(32)}`;
const clock = testClock(new Date('2026-07-01T15:00:00Z'));
const env = useFakeTwilioApp({ clock, env: { TWILIO_WHATSAPP_TEMPLATES: `invitation=${TEMPLATE},reminder=${TEMPLATE}` } });
const sentTo = (phone: string) => env.fake.sent.filter((s) => s.params.To === phone || s.params.To === `whatsapp:${phone}`);

describe('the templates as Meta approves them [text] [variables]', () => {
  const templates = Object.entries(WHATSAPP_TEMPLATES);

  it.each(templates)(
    '%s: fixed words first and last, never two variables side by side, numbered from 1 with a sample each',
    (_, template) => {
      const body = template.body.trim();
      expect(body).not.toMatch(/^\{\{/);
      expect(body).not.toMatch(/\}\}[\s.!?,:;)]*$/);
      expect(body).not.toMatch(/\}\}\s*\{\{/);
      const names = placeholdersOf(body);
      expect(names).toEqual(names.map((_, i) => String(i + 1)));
      expect(Object.keys(template.variables)).toEqual(names);
      for (const variable of Object.values(template.variables)) expect(variable.sample.trim()).not.toBe('');
      expect(template.name).toMatch(/^[a-z0-9_]+$/);
    },
  );

  it('each text is built with exactly its template variables', () => {
    const keys = (kind: keyof typeof WHATSAPP_TEMPLATES) => Object.keys(WHATSAPP_TEMPLATES[kind]?.variables ?? {});
    const invitation = { loopName: 'Smith Family', adderName: 'Alice Abbot', viaLink: false, frequency: 'about 3 msgs/wk' };
    expect(Object.keys(replies.invitationTemplateVariables(invitation))).toEqual(keys('invitation'));
    expect(Object.keys(reminderTemplateVariables('Ada', ['Smith Family']))).toEqual(keys('reminder'));
    expect(Object.keys(newsletterTexts.newsletter('Smith Family', 'https://x.example/n/1').templateVariables)).toEqual(keys('newsletter'));
    expect(Object.keys(newsletterTexts.sneakPeek('Smith Family', '2 updates', ['Ada'], 'https://x.example/n/1').templateVariables)).toEqual(
      keys('sneak_peek'),
    );
    expect(Object.keys(replies.groupMessage('Smith Family', 'Maya', 'Picnic').templateVariables)).toEqual(keys('group_message'));
  });

  it("the invitation's template reads as the SMS does, with the brand, rates, YES, HELP and STOP in its fixed words", () => {
    const invitation = { loopName: 'Smith Family', adderName: 'Alice Abbot', viaLink: false, frequency: 'about 3 msgs/wk' };
    expect(renderWhatsappTemplate('invitation', replies.invitationTemplateVariables(invitation))).toBe(replies.invitation(invitation));
    const template = WHATSAPP_TEMPLATES.invitation?.body ?? '';
    expect(template).toMatch(/^Loop: /);
    expect(template).toMatch(/Msg & data rates may apply\. Reply YES to join, HELP for help, STOP to opt out\.$/);
  });
});

describe('at the fake Twilio API [send]', () => {
  it('an invitation outside the window goes as its template: three short variables, never the whole text as {{1}}', async () => {
    // A person who chose WhatsApp themselves (decision 0060), and has not written in 24 hours.
    const person = await createPerson(env.db(), { messagingPreference: 'whatsapp' });
    const owner = await signUp(env.t.app, { firstName: 'Alice', lastName: 'Abbot' });
    const loop = await createLoopAs(env.t.app, owner.cookie, { name: 'Smith Family' });
    const added = await env.t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner.cookie },
      payload: { firstName: 'Ada', lastName: 'Lovelace', phoneNumber: person.phoneNumber },
    });
    expect(added.statusCode).toBe(201);
    await sweepUntilIdle(env.t.app.ctx);
    const [sent] = sentTo(person.phoneNumber);
    expect(sent?.params).toMatchObject({ To: `whatsapp:${person.phoneNumber}`, ContentSid: TEMPLATE });
    expect(sent?.params.Body).toBeUndefined();
    const variables = JSON.parse(String(sent?.params.ContentVariables)) as Record<string, string>;
    expect(variables).toEqual({ '1': 'Alice Abbot', '2': '"Smith Family"', '3': expect.stringMatching(/msgs?\//) as unknown });
  });

  it('a text of a templated kind queued without its variables goes by SMS, not as a template Meta would refuse', async () => {
    const person = await createPerson(env.db(), { messagingPreference: 'whatsapp' });
    await env
      .db()
      .transaction((tx) =>
        enqueueText(tx, { kind: 'reminder', userId: person.id, body: 'Time to share your news!', idempotencyKey: `bare:${person.id}` }),
      );
    await sweepUntilIdle(env.t.app.ctx);
    expect(sentTo(person.phoneNumber)[0]?.params).toMatchObject({ To: person.phoneNumber, Body: 'Time to share your news!' });
  });
});
