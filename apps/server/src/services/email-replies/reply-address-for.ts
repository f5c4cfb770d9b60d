import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { members } from '../../db/schema';

/**
 * The member's own reply address, reply+{token}@{replyDomain} (decision 0049), for the Reply-To
 * of the e-mails Loop sends them: a reply to it becomes their update in that member's Loop. The
 * token is made the first time it is asked for and kept: 128 random bits (docs/architecture.md#tokens)
 * in lower-case hex, which survives mail systems that change the case of addresses.
 */
export async function replyAddressFor(db: DbOrTx, memberId: number, replyDomain: string): Promise<string> {
  const fresh = randomBytes(16).toString('hex');
  const [row] = await db
    .update(members)
    .set({ replyToken: sql`coalesce(${members.replyToken}, ${fresh})` })
    .where(eq(members.id, memberId))
    .returning({ token: members.replyToken });
  if (!row?.token) throw new Error(`no member ${memberId}`);
  return `reply+${row.token}@${replyDomain}`;
}
