import { inArray, sql, type SQL } from 'drizzle-orm';
import type { EmailStatus } from '@loop/shared/constants';
import type { DbOrTx } from '../../db/client';
import { emailSuppressions, type users } from '../../db/schema';

type AddressState = Pick<typeof users.$inferSelect, 'email' | 'emailConfirmedAddress'>;

/**
 * Where each person's address stands (decision 0047), in the order given: suppressed addresses
 * are `unsubscribed` (or a complaint) or `bouncing`; otherwise `confirmed` while the confirmed
 * address is the account's address, else `unconfirmed`; `none` without an address.
 */
export async function emailStatuses(db: DbOrTx, people: readonly AddressState[]): Promise<EmailStatus[]> {
  const addresses = [...new Set(people.flatMap((p) => (p.email ? [p.email.toLowerCase()] : [])))];
  const suppressed =
    addresses.length === 0
      ? []
      : await db
          .select({ address: emailSuppressions.address, reason: emailSuppressions.reason })
          .from(emailSuppressions)
          .where(inArray(emailSuppressions.address, addresses));
  const reasonOf = new Map(suppressed.map((s) => [s.address, s.reason]));
  return people.map((person) => {
    if (!person.email) return 'none';
    const address = person.email.toLowerCase();
    const reason = reasonOf.get(address);
    if (reason === 'bounced') return 'bouncing';
    if (reason) return 'unsubscribed';
    return person.emailConfirmedAddress === address ? 'confirmed' : 'unconfirmed';
  });
}

/** emailStatuses as SQL over a person's address and confirmed address (for lists read in one statement). */
export function emailStatusSql(email: SQL, confirmedAddress: SQL): SQL<EmailStatus> {
  return sql<EmailStatus>`(case when ${email} is null then 'none'
    else coalesce((select case when s.reason = 'bounced' then 'bouncing' else 'unsubscribed' end
      from ${emailSuppressions} s where s.address = lower(${email})),
      case when ${confirmedAddress} = lower(${email}) then 'confirmed' else 'unconfirmed' end) end)`;
}

export async function emailStatusOf(db: DbOrTx, person: AddressState): Promise<EmailStatus> {
  const [status] = await emailStatuses(db, [person]);
  return status ?? 'none';
}
