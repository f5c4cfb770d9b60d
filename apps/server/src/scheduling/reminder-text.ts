import { withThe } from '../lib/article';
import { clip, listNames, templateVariable } from '../messaging/text-limits';
import { flattened, quoted, QUOTE_LIMITS, quotedLoopNames, quotedPerson } from '../messaging/quote';
import { OWN_QUESTION_LIMITS } from '@loop/shared/reminder-questions';
import type { PickedQuestion } from '../services/reminders/pick-question';

const loopList = (loopNames: string[]) => quotedLoopNames(loopNames, { maxChars: 400, maxNames: 5 });

/** Loop's own questions as they are; the owner's typed one quoted, one line, as every typed name (decision 0038). */
function asked(question: PickedQuestion): string {
  return question.own ? `Your organizer asks: ${quoted(question.text, OWN_QUESTION_LIMITS.maxChars)}` : question.text;
}

/** How a member who is in several Loops shares with just one of them. */
function howToShare(loopNames: string[], reply: string): string {
  if (loopNames.length === 1) return `Just reply with your ${reply}.`;
  const first = flattened(loopNames[0] ?? '', QUOTE_LIMITS.loopName).replace(/"/g, "'");
  return `Reply with your ${reply}: it goes to all of them, or start with a Loop's name and a colon ("${first}: ...") to share with just one.`;
}

/**
 * The reminder a member who has sent nothing since the last newsletter gets (decision 0043): a
 * question for the Loop's vibe (or the owner's own) instead of "What's new?". One text names every
 * Loop of theirs due at that minute (quoted, length-limited); one segment with usual names.
 */
export function reminderText(firstName: string, loopNames: string[], question: PickedQuestion): string {
  return `Hi ${quotedPerson(firstName)}! ${asked(question)} Time for your ${loopList(loopNames)} update. ${howToShare(loopNames, 'news and photos')}`;
}

/** The "last call" the day before a newsletter, to members still silent (decision 0043). */
export function lastCallText(firstName: string, loopNames: string[]): string {
  const which = loopNames.length === 1 ? 'newsletter goes' : 'newsletters go';
  return `Hi ${quotedPerson(firstName)}! Last call: ${withThe(loopNames[0] ?? '', loopList(loopNames))} ${which} out tomorrow. ${howToShare(loopNames, 'news or a photo today')}`;
}

/** The reminder template's variables: {{1}} the first name, {{2}} the Loops (short, one line). */
export function reminderTemplateVariables(firstName: string, loopNames: string[]): Record<string, string> {
  return {
    '1': templateVariable(clip(firstName, 60), 60),
    '2': templateVariable(listNames(loopNames, { maxChars: 150, maxNames: 3, maxNameChars: 40 })),
  };
}
