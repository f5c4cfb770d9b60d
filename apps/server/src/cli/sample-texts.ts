import { DEFAULT_FREQUENCY, DEFAULT_REMINDER_SCHEDULE } from '@loop/shared/constants';
import type { Config } from '../config';
import { replies } from '../messaging/replies';
import { smsSegments } from '../messaging/segments';
import { textFrequency } from '../messaging/text-frequency';
import { WHATSAPP_TEMPLATES } from '../messaging/whatsapp-templates';

/** The example a sample uses: a new Loop's schedule (reminders Thursday and Sunday, a newsletter every two weeks). */
const EXAMPLE = { loopName: 'Smith Family', adderName: 'Alice Abbot' };

/**
 * `npm run admin -- sample-texts`: the texts an operator registers with their 10DLC campaign as
 * sample messages (README, "Text messages with Twilio"), written by the same functions that write
 * the texts Loop sends, with this server's SUPPORT_CONTACT; then the WhatsApp templates to submit
 * (whatsappTemplates). No database is opened.
 */
export function sampleTexts(config: Pick<Config, 'supportContact'>): string {
  const frequency = textFrequency([{ reminderSchedule: DEFAULT_REMINDER_SCHEDULE, frequency: DEFAULT_FREQUENCY }]);
  const texts: [string, string][] = [
    [
      'Invitation (the opt-in request; sent when someone adds a phone to a Loop)',
      replies.invitation({ ...EXAMPLE, viaLink: false, frequency }),
    ],
    ['Confirmation (the answer to YES)', replies.joined([EXAMPLE.loopName], frequency)],
    ['HELP', replies.help(config.supportContact)],
  ];
  const sms = texts
    .map(([title, body]) => {
      const segments = smsSegments(body);
      return `${title}, ${body.length} characters, ${segments} SMS segment${segments === 1 ? '' : 's'}:\n${body}`;
    })
    .join('\n\n');
  return `${sms}\n\n${whatsappTemplates()}`;
}

/**
 * The WhatsApp templates to create (Twilio Content API, type twilio/text, language en) and submit
 * to Meta, each with its variables and their samples, and the TWILIO_WHATSAPP_TEMPLATES entry that
 * gives Loop its ContentSid (decision 0060).
 */
export function whatsappTemplates(): string {
  const entries = Object.entries(WHATSAPP_TEMPLATES).map(([kind, template]) => {
    const variables = Object.entries(template.variables).map(([key, v]) => `  {{${key}}}: ${v.holds}; sample: ${v.sample}`);
    return [
      `WhatsApp template ${template.name} (category ${template.category}, language en; TWILIO_WHATSAPP_TEMPLATES ${kind}=HX...):`,
      template.body,
      ...variables,
    ].join('\n');
  });
  return ['WhatsApp templates to submit (outside the 24-hour window Loop sends these, filled in):', ...entries].join('\n\n');
}
