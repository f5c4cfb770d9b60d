import { DEFAULT_FREQUENCY, DEFAULT_REMINDER_SCHEDULE } from '@loop/shared/constants';
import type { Config } from '../config';
import { replies } from '../messaging/replies';
import { smsSegments } from '../messaging/segments';
import { textFrequency } from '../messaging/text-frequency';

/** The example a sample uses: a new Loop's schedule (reminders Thursday and Sunday, a newsletter every two weeks). */
const EXAMPLE = { loopName: 'Smith Family', adderName: 'Alice Abbot' };

/**
 * `npm run admin -- sample-texts`: the texts an operator registers with their 10DLC campaign as
 * sample messages (README, "Text messages with Twilio"), written by the same functions that write
 * the texts Loop sends, with this server's SUPPORT_CONTACT. No database is opened.
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
  return texts
    .map(([title, body]) => {
      const segments = smsSegments(body);
      return `${title}, ${body.length} characters, ${segments} SMS segment${segments === 1 ? '' : 's'}:\n${body}`;
    })
    .join('\n\n');
}
