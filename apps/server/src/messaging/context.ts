import type { messages } from '../db/schema';
import type { AppContext } from '../context';

/** What the messaging code needs from the app: its database, settings, clock, provider, media storage and transcriber. */
export type MessagingContext = Pick<AppContext, 'db' | 'config' | 'clock' | 'provider' | 'storage' | 'transcriber' | 'mailer'>;
export type MessageRow = typeof messages.$inferSelect;

/** The channels of texts: an `email` row (mail/) or a call's `voice` recording (voice/) is never handled as a text. */
export type TextChannel = Exclude<MessageRow['channel'], 'email' | 'voice'>;

/** A text row's channel; an e-mail row here is a bug (mail/ claims and sends those). */
export function textChannel(channel: MessageRow['channel']): TextChannel {
  if (channel === 'email' || channel === 'voice') throw new Error(`An ${channel} row was handled as a text`);
  return channel;
}
