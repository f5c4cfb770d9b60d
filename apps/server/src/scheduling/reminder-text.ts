import { LIMITS } from '@loop/shared/constants';
import { clip, listNames, templateVariable } from '../messaging/text-limits';

const loopList = (loopNames: string[]) => listNames(loopNames, { maxChars: 400, maxNames: 5 });

/** The reminder a member gets; one text names every Loop of theirs due at that minute. */
export function reminderText(firstName: string, loopNames: string[]): string {
  const hello = `Hi ${clip(firstName, LIMITS.name)}! What's new? Time for your ${loopList(loopNames)} update.`;
  if (loopNames.length === 1) return `${hello} Just reply to this text with your news and photos.`;
  return `${hello} Reply with your news and photos: it goes to all of them, or start with a Loop's name and a colon ("${clip(loopNames[0] ?? '', LIMITS.loopName)}: ...") to share with just one.`;
}

/** The reminder template's variables: {{1}} the first name, {{2}} the Loops (short, one line). */
export function reminderTemplateVariables(firstName: string, loopNames: string[]): Record<string, string> {
  return { '1': templateVariable(firstName, 60), '2': templateVariable(listNames(loopNames, { maxChars: 150, maxNames: 3, maxNameChars: 40 })) };
}
