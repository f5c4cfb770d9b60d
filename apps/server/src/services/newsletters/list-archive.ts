import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, newsletters } from '../../db/schema';
import { AppError } from '../../errors';
import { getLoopAccess } from '../loop-access';
import { membershipIsActive } from '../members/membership-is-active';
import type { SessionUser } from '../sessions/find-session-user';
import { findPublicNewsletter } from './find-public-newsletter';
import { LOOP_NEWSLETTER_LIMIT } from './list-loop-newsletters';
import { personalArchiveKey } from './personal-archive-key';

export interface ArchiveEntry {
  kind: 'newsletter' | 'sneak_peek';
  title: string;
  urlId: string;
  sentAt: Date;
}

export interface Archive {
  loop: { name: string; timeZone: string };
  entries: ArchiveEntry[];
}

/**
 * The past issues of the Loop whose sent newsletter has this urlId, newest first, for the Loop's
 * current people only (decision 0053): the viewer signed in as its owner, staff or an active
 * member. Anyone else holding the link, a removed member included, gets `members_only`: an old
 * link opens its own issue, never the later ones. An unknown link, a draft's, or any other string
 * is null (a 404), so nothing can be listed without a link a member was texted.
 */
export async function listArchive(db: DbOrTx, urlId: string, viewer: SessionUser | null): Promise<Archive | 'members_only' | null> {
  const found = await findPublicNewsletter(db, urlId);
  if (!found || found.newsletter.status !== 'sent') return null;
  try {
    await getLoopAccess(db, viewer, found.newsletter.loopId);
  } catch (error) {
    if (error instanceof AppError) return 'members_only';
    throw error;
  }
  return { loop: found.loop, entries: await sentIssues(db, found.newsletter.loopId) };
}

export async function listPersonalArchive(db: DbOrTx, secret: string, key: string): Promise<Archive | null> {
  const match = /^([1-9][0-9]{0,15})-([A-Za-z0-9_-]{32})$/.exec(key);
  if (!match?.[1] || !match[2]) return null;
  const memberId = Number(match[1]);
  const expected = Buffer.from(personalArchiveKey(secret, memberId));
  const given = Buffer.from(key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [row] = await db
    .select({ loopId: loops.id, name: loops.name, timeZone: loops.timeZone })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(eq(members.id, memberId), membershipIsActive))
    .limit(1);
  if (!row) return null;
  return { loop: { name: row.name, timeZone: row.timeZone }, entries: await sentIssues(db, row.loopId) };
}

async function sentIssues(db: DbOrTx, loopId: number): Promise<ArchiveEntry[]> {
  const rows = await db
    .select({ kind: newsletters.kind, title: newsletters.title, urlId: newsletters.urlId, sentAt: newsletters.sentAt })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loopId), eq(newsletters.status, 'sent')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(LOOP_NEWSLETTER_LIMIT);
  return rows.flatMap((row) => (row.sentAt ? [{ ...row, sentAt: row.sentAt }] : []));
}
