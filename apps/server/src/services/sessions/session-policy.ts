import { DAY_MS, MINUTE_MS } from '../../lib/clock';

/** A session ends after 14 days without use, and 60 days after sign-in whatever happens. */
export const SESSION_IDLE_MS = 14 * DAY_MS;
export const SESSION_ABSOLUTE_MS = 60 * DAY_MS;
/** lastSeenAt is written at most this often, so reads stay reads. */
export const SESSION_TOUCH_MS = MINUTE_MS;
export const SESSION_COOKIE = 'loop_session';
