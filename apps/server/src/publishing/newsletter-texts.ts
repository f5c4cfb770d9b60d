import { newsletterPath } from '@loop/shared/newsletters';
import { withThe } from '../lib/article';
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
    body: `${withThe(loopName, quotedLoop(loopName), { capital: true })} newsletter is here! Catch up on everyone's news and photos: ${url}`,
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

/** The owner's page for one draft: the web app's review screen (sign-in needed). */
export function reviewUrl(publicUrl: string, loopId: number, newsletterId: number): string {
  return `${publicUrl}/loops/${loopId}/newsletters/${newsletterId}`;
}

/**
 * "tomorrow at 9:00 AM EST", "today at 6:00 PM GMT" or "on Sunday, December 6 at 6:00 PM GMT+1": when a scheduled
 * issue goes, in the owner's zone, said from `now`.
 */
export function sendTimeWords(sendAt: Date, now: Date, timeZone: string): string {
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  // On the person's clock with its zone, as the web page shows times ("6:00 PM EST"; decision 0061).
  // ICU puts a narrow no-break space before "PM": outside GSM-7, it would make the text UCS-2.
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
    .format(sendAt)
    .replace(/[\u00a0\u202f]/g, ' ');
  if (day(sendAt) === day(now)) return `today at ${time}`;
  if (day(sendAt) === day(new Date(now.getTime() + 86_400_000))) return `tomorrow at ${time}`;
  const date = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', month: 'long', day: 'numeric' }).format(sendAt);
  return `on ${date} at ${time}`;
}

/** The owner's texts about a scheduled issue (decision 0040). */
export const reviewTexts = {
  /** 24 hours before; with review on it adds that it waits for them. */
  preview: (loopName: string, when: string, url: string, needsApproval: boolean): string =>
    needsApproval
      ? `Your ${quotedLoop(loopName)} newsletter goes out ${when} once you approve it: look at it here ${url}`
      : `Your ${quotedLoop(loopName)} newsletter goes out ${when}: look at it here ${url}`,
  /** 2 hours before, review on and not approved yet. */
  lastCall: (loopName: string, when: string, url: string): string =>
    `Your ${quotedLoop(loopName)} newsletter is waiting for your approval to go out ${when}. Approve, edit or skip it here ${url}`,
};
