import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { loops, members } from '../db/schema';
import { listConfirmableLoops } from '../services/memberships/confirm-pending-memberships';
import { membershipIsActive } from '../services/memberships/membership-is-active';
import type { Keyword } from './keywords';
import { optInPhone, optOutPhone } from './opt-outs';
import { replies } from './replies';

/**
 * Applies STOP / START / HELP / LOOPS and returns the reply to send, if any. After STOP nothing is
 * sent. When Twilio's Advanced Opt-Out handled the word (OptOutType is set) it has already
 * answered, so we do not answer twice.
 */
export async function handleKeyword(
  tx: DbOrTx,
  input: { keyword: Keyword; phone: string | null; userId: number | null; word: string; optOutType: string | undefined; now: Date },
): Promise<string | null> {
  const twilioAnswered = input.optOutType !== undefined && input.optOutType !== '';
  switch (input.keyword) {
    case 'opt_out':
      if (input.phone) {
        const reason = twilioAnswered ? `OptOutType=${input.optOutType}` : input.word.trim().toUpperCase();
        await optOutPhone(tx, input.phone, reason, input.now);
      }
      return null;
    case 'opt_in': {
      if (input.phone) await optInPhone(tx, input.phone);
      // Back in, with invitations that still wait: say so, since nothing else will ask again.
      const waiting = input.userId === null ? [] : await listConfirmableLoops(tx, input.userId, input.now);
      if (twilioAnswered) return waiting.length > 0 ? replies.invitationsWaiting(waiting.map((l) => l.name)) : null;
      return [replies.optedIn(), ...(waiting.length > 0 ? [replies.invitationsWaiting(waiting.map((l) => l.name))] : [])].join(' ');
    }
    case 'help':
      return twilioAnswered ? null : replies.help();
    case 'loops': {
      if (input.userId === null) return replies.joinHelp();
      const names = await tx
        .select({ name: loops.name })
        .from(members)
        .innerJoin(loops, eq(loops.id, members.loopId))
        .where(and(eq(members.userId, input.userId), membershipIsActive))
        .orderBy(asc(loops.name));
      return names.length > 0 ? replies.yourLoops(names.map((n) => n.name)) : replies.joinHelp();
    }
  }
}
