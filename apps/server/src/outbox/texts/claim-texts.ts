import { getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages, users } from '../../db/schema';
import type { MessageRow } from '../../messaging/context';
import { personZoneKnown, phoneCountryZones, recipientTimeZone } from '../../messaging/time-zones';
import { claimDue, startOrder, type ClaimInput } from '../claim-outbound';

/** A claimed outbound text, with what planning it needs to know about its member. */
export type ClaimedText = MessageRow & {
  /** WhatsApp texts only: the member's last WhatsApp text, for the 24-hour window. */
  lastWhatsappInboundAt: Date | null;
  /** The recipient's time zone (decision 0036), for quiet hours; null when nothing is known. */
  recipientTimeZone: string | null;
  /** Every zone of the recipient's phone's country when nothing else places them (decision 0057), else null. */
  recipientCountryZones: readonly string[] | null;
};

/**
 * Claims due SMS and WhatsApp texts with the shared claim (claimDue), and reads in the same
 * statement, for WhatsApp, when the member last texted there: planning a claimed text then needs
 * no other query. Whether it may still go out is checked at the moment of sending
 * (sendableTextsQuery), not here.
 */
export async function claimTexts(db: Db, input: ClaimInput): Promise<ClaimedText[]> {
  const rows = await claimDue(db, input, ['sms', 'whatsapp']).returning({
    ...getTableColumns(messages),
    lastWhatsappInboundAt:
      sql<Date | null>`case when ${messages.channel} = 'whatsapp' then (select ${users.lastWhatsappInboundAt} from ${users} where ${users.id} = ${messages.userId}) end`.mapWith(
        users.lastWhatsappInboundAt,
      ),
    recipientTimeZone: recipientTimeZone(messages.userId, messages.loopId),
    // Qualified by hand: in this statement's RETURNING drizzle writes bare column names, and
    // `loop_id` inside the subquery would be the membership's.
    recipientZoneKnown: personZoneKnown(sql`${messages}.user_id`, sql`${messages}.loop_id`),
  });
  return startOrder(
    rows.map(({ recipientZoneKnown, ...row }) => ({
      ...row,
      recipientCountryZones: recipientZoneKnown ? null : (phoneCountryZones(row.toAddress)?.zones ?? null),
    })),
  );
}
