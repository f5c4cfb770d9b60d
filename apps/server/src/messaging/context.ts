import type { messages } from '../db/schema';
import type { AppContext } from '../context';

/** What the messaging code needs from the app: its database, settings, clock, provider and media storage. */
export type MessagingContext = Pick<AppContext, 'db' | 'config' | 'clock' | 'provider' | 'storage'>;
export type MessageRow = typeof messages.$inferSelect;
