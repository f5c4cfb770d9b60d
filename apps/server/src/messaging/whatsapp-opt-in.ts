import { sql, type SQL } from 'drizzle-orm';
import { users } from '../db/schema';

/**
 * The channel Loop texts a person on (decision 0060): WhatsApp only when they prefer it and chose
 * it themselves (`whatsapp_opted_in_at`), else SMS. Meta asks for the person's own opt-in before
 * a business messages them on WhatsApp (https://www.twilio.com/docs/whatsapp/api: "WhatsApp
 * requires that your application implement explicit user opt-ins"), so a preference someone else
 * typed (an owner adding a member) waits for it. Read where texts are queued, in the same
 * statement as the person.
 */
export const textChannelOfUser: SQL<'sms' | 'whatsapp'> = sql<
  'sms' | 'whatsapp'
>`(case when ${users.messagingPreference} = 'whatsapp' and ${users.whatsappOptedInAt} is not null then 'whatsapp' else 'sms' end)`;

/** The same rule for a user row already read. */
export function textChannelOf(user: { messagingPreference: 'sms' | 'whatsapp'; whatsappOptedInAt: Date | null }): 'sms' | 'whatsapp' {
  return user.messagingPreference === 'whatsapp' && user.whatsappOptedInAt !== null ? 'whatsapp' : 'sms';
}

/**
 * The columns to set when the person themselves chooses a preference (sign-up, Profile): choosing
 * WhatsApp is their opt-in to it.
 */
export function ownPreference(
  preference: 'sms' | 'whatsapp',
  now: Date,
): { messagingPreference: 'sms' | 'whatsapp'; whatsappOptedInAt?: Date } {
  return preference === 'whatsapp' ? { messagingPreference: preference, whatsappOptedInAt: now } : { messagingPreference: preference };
}
