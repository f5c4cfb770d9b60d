/** What decides how often a Loop texts its members: reminders on its schedule, and its newsletter. */
export interface LoopCadence {
  reminderSchedule: readonly unknown[];
  frequency: 'weekly' | 'biweekly' | 'monthly';
}

const NEWSLETTERS_PER_WEEK = { weekly: 1, biweekly: 1 / 2, monthly: 12 / 52 } as const;

/**
 * How often these Loops text a member, as CTIA asks a consent request and its confirmation to
 * say (Messaging Principles and Best Practices 5.1.2.1, 5.1.3): "about 3 msgs/wk" from the
 * reminders (one per schedule entry a week), the newsletter links and their day-before last calls
 * (decision 0043); "about 2 msgs/mo" below one a week; "msg frequency varies" when neither is
 * scheduled (only staff's occasional texts).
 */
export function textFrequency(loops: readonly LoopCadence[]): string {
  const perWeek = loops.reduce((sum, loop) => sum + loop.reminderSchedule.length + 2 * NEWSLETTERS_PER_WEEK[loop.frequency], 0);
  const msgs = (n: number) => (n === 1 ? '1 msg' : `${n} msgs`);
  if (perWeek >= 1) return `about ${msgs(Math.round(perWeek))}/wk`;
  const perMonth = Math.round((perWeek * 52) / 12);
  return perMonth >= 1 ? `about ${msgs(perMonth)}/mo` : 'msg frequency varies';
}
