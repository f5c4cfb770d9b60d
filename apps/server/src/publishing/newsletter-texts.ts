import { newsletterPath } from '@loop/shared/newsletters';
import { quotedLoop, quotedPerson } from '../messaging/quote';
import { listNames, templateVariable } from '../messaging/text-limits';

/** The link a text carries: absolute on PUBLIC_URL, so it opens from any phone. */
export function newsletterUrl(publicUrl: string, urlId: string): string {
  return `${publicUrl}${newsletterPath(urlId)}`;
}

/** A text and, for outside WhatsApp's window, its template's variables (short, one line each). */
export interface TextWithTemplate {
  body: string;
  templateVariables: Record<string, string>;
}

/**
 * The texts that carry newsletters to members: short, one link, plain text, at most a few
 * hundred characters whatever the Loop's name and however many people wrote; names quoted
 * (quote.ts). The template's
 * variables are the Loop's name ({{1}}) and the link ({{2}}): the content is on the page.
 */
export const newsletterTexts = {
  newsletter: (loopName: string, url: string): TextWithTemplate => ({
    body: `The ${quotedLoop(loopName)} newsletter is here! Catch up on everyone's news and photos: ${url}`,
    templateVariables: { '1': templateVariable(loopName), '2': url },
  }),
  sneakPeek: (loopName: string, summary: string, authors: readonly string[], url: string): TextWithTemplate => {
    const people =
      authors.length > 0 ? listNames(authors.map(quotedPerson), { maxChars: 200, maxNames: 6, maxNameChars: 40 }) : 'nobody yet';
    return {
      body: `Sneak peek from ${quotedLoop(loopName)}: ${summary} from ${people} so far! Take a look: ${url} The full newsletter is coming soon.`,
      templateVariables: { '1': templateVariable(loopName), '2': url },
    };
  },
};
