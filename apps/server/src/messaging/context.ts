import type { messages } from '../db/schema';
import type { AppContext } from '../plugins/context';

/** What the messaging code needs from the app: its database, settings and clock. */
export type MessagingContext = Pick<AppContext, 'db' | 'config' | 'clock'>;
export type MessageRow = typeof messages.$inferSelect;
