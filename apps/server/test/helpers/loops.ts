import type { Db } from '../../src/db/client';
import { confirmMembership } from '../../src/services/members/confirm-membership';
import { eq } from 'drizzle-orm';
import { media, members, updates } from '../../src/db/schema';
import type { TestApp } from './app';

export const BROWSER_ZONE = 'America/New_York';

/** Creates a Loop through the API as the person with this cookie. */
export async function createLoopAs(app: TestApp, cookie: string, overrides: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/loops',
    headers: { cookie },
    payload: { name: 'The Smiths', vibe: ['family'], timeZone: BROWSER_ZONE, ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`create loop failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: number; creatorId: number; name: string }>();
}

/** Adds an existing account to a Loop by phone, as the owner. */
export async function addMemberAs(app: TestApp, cookie: string, loopId: number, person: { phoneNumber: string; firstName?: string }) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/loops/${loopId}/members`,
    headers: { cookie },
    payload: { firstName: person.firstName ?? 'Member', lastName: 'Person', ...person },
  });
  if (res.statusCode !== 201) throw new Error(`add member failed: ${res.statusCode} ${res.body}`);
  const member = res.json<{ id: number }>();
  // The answer names no person while the invitation is pending (decision 0031): read it here.
  const [row] = await app.ctx.db.select({ userId: members.userId }).from(members).where(eq(members.id, member.id));
  if (!row) throw new Error('the member was not stored');
  return { ...member, userId: row.userId };
}

/** Stores an update directly, as the text-message pipeline would. */
export async function insertUpdate(db: Db, loopId: number, userId: number, content: string, photoKeys: string[] = [], createdAt?: Date) {
  const [update] = await db
    .insert(updates)
    .values({ loopId, userId, content, ...(createdAt ? { createdAt } : {}) })
    .returning();
  if (!update) throw new Error('no update');
  if (photoKeys.length) {
    // As the pipeline stores them: one converted size each, here under the photo's own key.
    await db.insert(media).values(
      photoKeys.map((storageKey, position) => ({
        updateId: update.id,
        storageKey,
        contentType: 'image/jpeg',
        bytes: 10,
        position,
        width: 8,
        height: 8,
        variants: [{ width: 8, height: 8, key: storageKey, bytes: 10 }],
      })),
    );
  }
  return update;
}

/**
 * Adds a member as the owner and has them say yes, as a YES text would: the one-line way for a
 * test to get a member who receives texts and whose texts reach the Loop.
 */
export async function addActiveMemberAs(app: TestApp, cookie: string, loopId: number, person: { phoneNumber: string; firstName?: string }) {
  const member = await addMemberAs(app, cookie, loopId, person);
  const confirmed = await confirmMembership(app.ctx.db, member.id, app.ctx.clock());
  if (!confirmed) throw new Error('the member could not confirm');
  return member;
}
