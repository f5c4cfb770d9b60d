import type { Config } from '../../config';
import { DAY_MS } from '../../lib/clock';
import type { Limit } from '../attempts/enforce-limits';

/**
 * An owner's group messages to one Loop per day, sent or scheduled (decision 0042), counted in the
 * attempt_counts rows every server process shares. Staff are not limited, as before.
 */
export function groupMessageLimits(config: Pick<Config, 'GROUP_MESSAGES_PER_LOOP_PER_DAY'>, loopId: number): Limit[] {
  const max = config.GROUP_MESSAGES_PER_LOOP_PER_DAY;
  return [
    {
      key: `group-message:loop:${loopId}`,
      max,
      windowMs: DAY_MS,
      message: (wait) =>
        `This Loop has had ${max} group ${max === 1 ? 'message' : 'messages'} today, the most one day allows. You can send another ${wait}.`,
    },
  ];
}

/**
 * An owner's "Send now" of a newsletter texts the whole Loop too: it counts in the same row as
 * group messages (decision 0054), so drafts sent one after another cannot get around the cap.
 * Newsletters sent at their scheduled time are not counted (one per period).
 */
export function newsletterSendLimits(config: Pick<Config, 'GROUP_MESSAGES_PER_LOOP_PER_DAY'>, loopId: number): Limit[] {
  const max = config.GROUP_MESSAGES_PER_LOOP_PER_DAY;
  return groupMessageLimits(config, loopId).map((limit) => ({
    ...limit,
    message: (wait: string) =>
      `This Loop has had ${max} texts to all its members today (group messages and newsletters sent now), the most one day allows. You can send this newsletter ${wait}.`,
  }));
}
