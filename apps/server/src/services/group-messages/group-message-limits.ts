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
