/** Newsletters' paths and links, with no schema library: the web's editor imports them. */

/** The public page of a newsletter. */
export function newsletterPath(urlId: string): string {
  return `/newsletters/${urlId}`;
}

/**
 * The Loop's past issues, reached through one of its sent newsletters' links (decision 0042), by
 * its current members signed in (decision 0053).
 */
export function newsletterArchivePath(urlId: string): string {
  return `/newsletters/${urlId}/archive`;
}

/** A member's own link to their Loop's past issues, good while they are a member (decision 0053). */
export function personalArchivePath(key: string): string {
  return `/newsletters/past/${key}`;
}

/** The only URLs a newsletter may point at: the web, and our own photos (the server's page and the admin preview). */
export const MEDIA_PATH = /^\/media\/[A-Za-z0-9_-]+$/;
const WEB_URL = /^https?:\/\/[^\s/\\]/i;

export function isAllowedNewsletterUrl(url: string): boolean {
  return WEB_URL.test(url) || MEDIA_PATH.test(url);
}
