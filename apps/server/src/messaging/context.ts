import type { messages } from '../db/schema';
import type { AppContext } from '../context';

/** What the messaging code needs from the app: its database, settings, clock, provider, media storage and transcriber. */
export type MessagingContext = Pick<AppContext, 'db' | 'config' | 'clock' | 'provider' | 'storage' | 'transcriber'>;
export type MessageRow = typeof messages.$inferSelect;
