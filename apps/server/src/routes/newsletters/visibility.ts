import type { PublicNewsletter } from '../../services/newsletters/find-public-newsletter';

/** A urlId is randomToken(): base64url. Anything else is unknown without asking the database. */
export const URL_ID = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * Who may see an issue, on the page and on paper alike: a sent one anyone with its link; a draft
 * only staff and its Loop's owner (decision 0040).
 */
export function isVisibleTo(found: PublicNewsletter, user: { id: number; isStaff: boolean } | null | undefined): boolean {
  return found.newsletter.status === 'sent' || user?.isStaff === true || user?.id === found.loop.creatorId;
}
