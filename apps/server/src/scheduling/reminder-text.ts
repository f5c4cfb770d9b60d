const listNames = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

/** The reminder a member gets; one text names every Loop of theirs due at that minute. */
export function reminderText(firstName: string, loopNames: string[]): string {
  const hello = `Hi ${firstName}! What's new? Time for your ${listNames(loopNames)} update.`;
  if (loopNames.length === 1) return `${hello} Just reply to this text with your news and photos.`;
  return `${hello} Reply with your news and photos: it goes to all of them, or start with a Loop's name and a colon ("${loopNames[0]}: ...") to share with just one.`;
}
