import { newsletterPath } from '@loop/shared/newsletters';

/** The link a text carries: absolute on PUBLIC_URL, so it opens from any phone. */
export function newsletterUrl(publicUrl: string, urlId: string): string {
  return `${publicUrl}${newsletterPath(urlId)}`;
}

/** The texts that carry newsletters to members: short, one link, plain text. */
export const newsletterTexts = {
  newsletter: (loopName: string, url: string) => `The ${loopName} newsletter is here! Catch up on everyone's news and photos: ${url}`,
  sneakPeek: (loopName: string, summary: string, url: string) =>
    `Sneak peek from ${loopName}: ${summary} so far! Take a look: ${url} The full newsletter is coming soon.`,
};
