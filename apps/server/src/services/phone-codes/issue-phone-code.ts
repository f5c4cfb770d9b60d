import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { phoneCodes } from '../../db/schema';
import { hashToken, newToken, randomToken } from '../../lib/tokens';
import { isOptedOut } from '../../messaging/opt-outs';
import { insertOutbound } from '../../messaging/outbox';
import { countAttempts } from '../attempts/count-attempts';
import { codeTextHold, recordCodeText, type CodeTextLimits, type CodesHeldError } from './code-text-budget';
import {
  hashHolder,
  hashPhoneCode,
  newPhoneCode,
  PHONE_CODE,
  phoneCodeText,
  presentedHolder,
  type PhoneCodePurpose,
} from './phone-code-policy';

export type IssueOutcome = (
  | /** A new code replaced this browser's old one; `text` is what was queued (null: the phone opted out, so nothing was). */
    { status: 'sent'; text: string | null; expiresAt: Date }
    /** This browser's last code went out less than PHONE_CODE.resendAfterMs ago: nothing changed. */
  | { status: 'too_soon'; waitSeconds: number }
  /** The phone had PHONE_CODE.perPhone codes in the hour, or perPhonePerDay in the day: nothing changed. */
  | { status: 'too_many'; waitSeconds: number }
  /** The phone's prefix or country had too many codes nobody typed in this hour (decision 0051): nothing changed. */
  | { status: 'held'; error: CodesHeldError }
  /** Nothing changed: a resend, and no code of this browser waits for this phone and purpose. */
  | { status: 'refused' }
) & {
  /** The code-holder secret the browser keeps after this request (set it again as its cookie). */
  holder: string;
};

/** Thrown inside the transaction to roll back every statement it ran, with the outcome to answer. */
class Discard extends Error {
  constructor(readonly outcome: IssueOutcome) {
    super('discarded');
  }
}

/**
 * Issues a code for a phone and purpose and queues its text by SMS through the configured
 * provider, in one transaction. A code belongs to the browser that asked for it (decision 0027):
 * `holder` is the secret that browser presented (its cookie). Each browser has its own code for a
 * phone and purpose (decision 0060): a form from another browser gets a code of its own and never
 * touches a waiting one, so a stranger cannot disturb a sign-up in progress nor stop the phone's
 * holder from getting a code, other than through the phone's caps. A new form from the same browser
 * replaces its code and details, and its secret (a planted cookie never keeps a code); a resend
 * keeps them, and without a code of this browser waiting changes nothing ('refused').
 *
 * Every outcome runs the same statements, and only a code that goes out is kept: an answer's
 * timing does not tell whether a code went out. `rehearse` runs them for nobody (an unknown
 * account), so that path costs what a real code costs. A phone that opted out (STOP) gets no text,
 * and its answer is the same as any other's; the sender checks opt-outs again at sending.
 */
export async function issuePhoneCode(
  db: Db,
  input: {
    phoneNumber: string;
    purpose: PhoneCodePurpose;
    /** What the code completes; 'keep': a resend, which keeps what the waiting code had. */
    payload: Record<string, unknown> | 'keep';
    now: Date;
    secret: string;
    /** The code-holder secret the browser presented, as it came (undefined: none). */
    holder: string | undefined;
    /** Do all the work for a code that must not exist (the same time as a real one), keep nothing. */
    rehearse?: boolean;
    /**
     * Codes nobody typed in, per prefix and country (decision 0051). Absent for sign-in codes,
     * which only the account's password triggers: a pumper next to the number cannot block them.
     */
    limits?: CodeTextLimits;
  },
): Promise<IssueOutcome> {
  const { purpose, now, secret } = input;
  // A rehearsal locks and writes rows no real phone has, so it waits for nobody.
  const phoneNumber = input.rehearse ? `rehearsal:${randomToken(12)}` : input.phoneNumber;
  const presented = presentedHolder(input.holder);
  return db.transaction(async (tx) => {
    // No secret matches no row (a hash is never empty).
    const presentedHash = presented ? hashHolder(presented, secret) : '';
    const thisBrowser = and(
      eq(phoneCodes.phoneNumber, phoneNumber),
      eq(phoneCodes.purpose, purpose),
      eq(phoneCodes.holderHash, presentedHash),
    );
    const [last] = await tx
      .select({ sentAt: phoneCodes.sentAt, payload: phoneCodes.payload, expiresAt: phoneCodes.expiresAt })
      .from(phoneCodes)
      .where(thisBrowser)
      .for('update');
    const mine = last !== undefined && last.expiresAt > now;
    // A resend keeps this browser's secret; a new form gets a new one, so a secret someone else
    // planted in this browser never keeps a code.
    const holder = input.payload === 'keep' && mine && presented ? presented : newToken('codeHolder');
    const unchanged = presented ?? holder;
    // The wait between codes is this browser's own: another browser only meets the phone's cap.
    const since = mine ? now.getTime() - last.sentAt.getTime() : Infinity;
    const payload = input.payload === 'keep' ? (last?.payload ?? {}) : input.payload;

    // Every outcome writes the code, its count and its text in a savepoint, and rolls it back
    // unless the code goes out: then every answer commits a write (the same cost on PostgreSQL,
    // where a commit waits for the disk) and only a code that went out is kept.
    return tx
      .transaction(async (sp) => {
        const capWait = await phoneCapWait(sp, purpose, phoneNumber, now, secret);
        const held = input.limits ? await codeTextHold(sp, phoneNumber, now, input.limits) : null;
        let refusal: IssueOutcome | null = null;
        if (!mine && input.payload === 'keep') refusal = { status: 'refused', holder: unchanged };
        else if (since < PHONE_CODE.resendAfterMs) {
          refusal = { status: 'too_soon', waitSeconds: Math.ceil((PHONE_CODE.resendAfterMs - since) / 1000), holder: unchanged };
        } else if (capWait > 0) refusal = { status: 'too_many', waitSeconds: capWait, holder: unchanged };
        else if (held) refusal = { status: 'held', error: held, holder: unchanged };
        const code = newPhoneCode();
        const expiresAt = new Date(now.getTime() + PHONE_CODE.validMs);
        const values = {
          codeHash: hashPhoneCode({ phoneNumber, purpose, code }, secret),
          tries: 0,
          payload,
          holderHash: hashHolder(holder, secret),
          sentAt: now,
          expiresAt,
        };
        // This browser's code (if any) gives way to the new one; other browsers' codes stay.
        await sp.delete(phoneCodes).where(thisBrowser);
        const [row] = await sp
          .insert(phoneCodes)
          .values({ phoneNumber, purpose, ...values })
          .returning({ id: phoneCodes.id });
        if (!row) throw new Error('upsert returned no row');
        let text: string | null = null;
        if (!(await isOptedOut(sp, phoneNumber))) {
          text = phoneCodeText(purpose, code);
          // Codes always go by SMS: a WhatsApp text outside the 24-hour window would need a template.
          await insertOutbound(sp, {
            channel: 'sms',
            toAddress: phoneNumber,
            fromAddress: '',
            kind: 'code',
            body: text,
            idempotencyKey: `code:${row.id}:${now.getTime()}`,
            userId: null,
            loopId: null,
            mediaUrls: [],
          });
          // Counted only if kept: a text actually queued (decision 0051).
          await recordCodeText(sp, { phoneNumber, codeHash: values.codeHash, now });
        }
        if (refusal) throw new Discard(refusal);
        const sent: IssueOutcome = { status: 'sent', text, expiresAt, holder };
        if (input.rehearse) throw new Discard(sent);
        return sent;
      })
      .catch((error: unknown) => {
        if (error instanceof Discard) return error.outcome;
        throw error;
      });
  });
}

/**
 * Counts a code to this phone per hour and per day (both, always: the same statements whatever
 * the outcome); over either, the seconds until it may have one, else 0. Each purpose has its own
 * counts (decision 0052): a stranger asking for "Forgot password?" codes for someone uses up only
 * that phone's reset codes, never its sign-up, phone change or sign-in codes (decision 0028).
 */
async function phoneCapWait(tx: DbOrTx, purpose: PhoneCodePurpose, phoneNumber: string, now: Date, secret: string): Promise<number> {
  const scope = `${purpose}:`;
  const caps = [
    { key: `code:phone:${scope}${phoneNumber}`, max: PHONE_CODE.perPhone, windowMs: PHONE_CODE.windowMs },
    { key: `code:phone-day:${scope}${phoneNumber}`, max: PHONE_CODE.perPhonePerDay, windowMs: PHONE_CODE.dayMs },
  ];
  let wait = 0;
  for (const cap of caps) {
    const [count] = await countAttempts(tx, [hashToken(cap.key, secret)], now, cap.windowMs);
    if (count && count.count > cap.max) wait = Math.max(wait, Math.ceil((count.windowEndsAt.getTime() - now.getTime()) / 1000));
  }
  return wait;
}

/** Deletes codes that expired (the scheduler does it every minute, with the attempt counts). */
export async function deleteExpiredPhoneCodes(db: Db, now: Date): Promise<void> {
  await db.delete(phoneCodes).where(sql`${phoneCodes.expiresAt} <= ${now.toISOString()}::timestamptz`);
}
