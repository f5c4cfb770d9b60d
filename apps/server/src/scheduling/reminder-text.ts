import { flattened, QUOTE_LIMITS, quotedLoopNames } from '../messaging/quote';

/** The reminder a member gets; one text names every Loop of theirs due at that minute (quoted, length-limited). */
export function reminderText(firstName: string, loopNames: string[]): string {
  const hello = `Hi ${flattened(firstName, QUOTE_LIMITS.personName)}! What's new? Time for your ${quotedLoopNames(loopNames)} update.`;
  if (loopNames.length === 1) return `${hello} Just reply to this text with your news and photos.`;
  const first = flattened(loopNames[0] ?? '', QUOTE_LIMITS.loopName).replace(/"/g, "'");
  return `${hello} Reply with your news and photos: it goes to all of them, or start with a Loop's name and a colon ("${first}: ...") to share with just one.`;
}
