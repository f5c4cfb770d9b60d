import { clip, listNames, templateVariable } from '../messaging/text-limits';
import { flattened, QUOTE_LIMITS, quotedLoopNames, quotedPerson } from '../messaging/quote';

const loopList = (loopNames: string[]) => quotedLoopNames(loopNames, { maxChars: 400, maxNames: 5 });

/** The reminder a member gets; one text names every Loop of theirs due at that minute (quoted, length-limited). */
export function reminderText(firstName: string, loopNames: string[]): string {
  const hello = `Hi ${quotedPerson(firstName)}! What's new? Time for your ${loopList(loopNames)} update.`;
  if (loopNames.length === 1) return `${hello} Just reply to this text with your news and photos.`;
  const first = flattened(loopNames[0] ?? '', QUOTE_LIMITS.loopName).replace(/"/g, "'");
  return `${hello} Reply with your news and photos: it goes to all of them, or start with a Loop's name and a colon ("${first}: ...") to share with just one.`;
}

/** The reminder template's variables: {{1}} the first name, {{2}} the Loops (short, one line). */
export function reminderTemplateVariables(firstName: string, loopNames: string[]): Record<string, string> {
  return {
    '1': templateVariable(clip(firstName, 60), 60),
    '2': templateVariable(listNames(loopNames, { maxChars: 150, maxNames: 3, maxNameChars: 40 })),
  };
}
