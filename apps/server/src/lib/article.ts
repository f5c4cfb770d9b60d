/**
 * "the" before a name as shown (`shown`: quoted or escaped), unless the name starts with its own
 * article: `The "Smith Family" newsletter`, but `"The Ochoa Family" newsletter`, never
 * `The "The Ochoa Family" newsletter`. `capital`: at the start of a sentence.
 */
export function withThe(name: string, shown: string, { capital = false } = {}): string {
  if (/^\W*the\s/i.test(name)) return shown;
  return `${capital ? 'The' : 'the'} ${shown}`;
}
