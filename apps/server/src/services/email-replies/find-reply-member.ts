import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';

/** reply+{32 hex digits}@domain: the only shape replyAddressFor makes. */
const REPLY_LOCAL_PART = /^reply\+([0-9a-f]{32})$/;

/** The member a reply address belongs to, with what handling their e-mail needs. */
export interface ReplyMember {
  memberId: number;
  loopId: number;
  loopName: string;
  status: (typeof members.$inferSelect)['status'];
  /** The address the owner typed for this member, if any. */
  memberEmail: string | null;
  user: Pick<typeof users.$inferSelect, 'id' | 'firstName' | 'email' | 'phoneNumber'>;
}

/**
 * Who `address` (a RCPT TO) is the reply address of, or null: an address of another domain, of
 * another shape, or whose token no member has. The caller answers all of these alike.
 */
export async function findReplyMember(db: DbOrTx, address: string, replyDomain: string): Promise<ReplyMember | null> {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== replyDomain.toLowerCase()) return null;
  const token = REPLY_LOCAL_PART.exec(address.slice(0, at).toLowerCase())?.[1];
  if (!token) return null;
  const [row] = await db
    .select({
      memberId: members.id,
      loopId: loops.id,
      loopName: loops.name,
      status: members.status,
      memberEmail: members.email,
      user: { id: users.id, firstName: users.firstName, email: users.email, phoneNumber: users.phoneNumber },
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(eq(members.replyToken, token))
    .limit(1);
  return row ?? null;
}
