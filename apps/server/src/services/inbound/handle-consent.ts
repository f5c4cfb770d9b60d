import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { membershipIsActive } from '../memberships/membership-is-active';
import { confirmPendingMemberships, listConfirmableLoops } from '../memberships/confirm-pending-memberships';
import type { ConsentText } from './consent';
import { isOptedOut, optInPhone } from '../../messaging/opt-outs';
import { replies } from '../../messaging/replies';
import { textFrequency } from '../../messaging/text-frequency';
import { nameKey } from './route-text';

/**
 * Applies a YES / JOIN: confirms the phone's open invitations (only the named one when the text
 * names a Loop; only `scope`'s when a simulator viewer plays someone else's phone) and returns the
 * reply, or null when a loose "YES words" names no invitation and is an ordinary text after all.
 * YES is also one of Twilio's opt-in words, so it lifts a STOP as Twilio does.
 */
export async function handleConsent(
  tx: DbOrTx,
  input: {
    consent: ConsentText;
    phone: string | null;
    userId: number | null;
    scope: readonly number[] | null;
    now: Date;
    /** Twilio answers an opt-in word itself (SMS with its keyword replies on): Loop stays quiet. */
    twilioAnswersOptIn?: boolean;
    /** The Phone Simulator plays Twilio, so it sends Twilio's answer in its place. */
    simulated?: boolean;
  },
): Promise<{ reply: string | undefined; kind?: 'opt_out_notice'; loopId: number | null } | null> {
  const { consent } = input;
  const open =
    input.userId === null
      ? []
      : (await listConfirmableLoops(tx, input.userId, input.now)).filter((l) => input.scope === null || input.scope.includes(l.id));
  const named = consent.name === null ? open : open.filter((l) => nameKey(l.name) === nameKey(consent.name ?? ''));
  if (consent.loose && named.length === 0) return null;
  const optsIn = consent.word === 'YES' && input.phone !== null && (await isOptedOut(tx, input.phone));
  if (optsIn && input.phone) await optInPhone(tx, input.phone);
  if (open.length === 0 && optsIn && input.twilioAnswersOptIn) {
    // One answer, never two: Twilio's (https://help.twilio.com/articles/223134027).
    return input.simulated ? { reply: replies.twilioOptedIn(), kind: 'opt_out_notice', loopId: null } : { reply: undefined, loopId: null };
  }
  if (open.length === 0) return { reply: optsIn ? replies.optedIn() : replies.nothingToJoin(), loopId: null };
  if (consent.name !== null && named.length === 0) {
    return {
      reply: replies.notInvitedTo(
        consent.name,
        open.map((l) => l.name),
      ),
      loopId: null,
    };
  }
  if (consent.name !== null && input.userId !== null) {
    // A name shared with a Loop they are in already is as ambiguous as two invitations of one name.
    const key = nameKey(consent.name);
    const active = (await activeLoops(tx, input.userId)).filter((l) => nameKey(l.name) === key);
    if (named.length + active.length > 1) return { reply: replies.sameName([...active, ...named]), loopId: null };
  }
  if (!input.phone) return { reply: replies.nothingToJoin(), loopId: null };
  const joined = await confirmPendingMemberships(tx, input.phone, input.now, { loopIds: named.map((l) => l.id) });
  if (joined.length === 0) return { reply: replies.nothingToJoin(), loopId: null };
  return {
    reply: replies.joined(
      joined.map((l) => l.name),
      textFrequency(joined),
    ),
    loopId: joined.length === 1 ? (joined[0]?.id ?? null) : null,
  };
}

function activeLoops(tx: DbOrTx, userId: number) {
  return tx
    .select({ name: loops.name, ownerName: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .innerJoin(users, eq(users.id, loops.creatorId))
    .where(and(eq(members.userId, userId), membershipIsActive));
}
