import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { phoneCodes } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { isOptedOut } from '../../messaging/opt-outs';
import { insertOutbound } from '../../messaging/outbox';
import { countAttempts } from '../attempts/count-attempts';
import { hashPhoneCode, newPhoneCode, PHONE_CODE, phoneCodeText, type PhoneCodePurpose } from './phone-code-policy';

export type IssueOutcome =
  /** A new code replaced any old one; `text` is what was queued (null: the phone opted out, so nothing was). */
  | { status: 'sent'; text: string | null; expiresAt: Date }
  /** The last code went out less than PHONE_CODE.resendAfterMs ago: nothing changed. */
  | { status: 'too_soon'; waitSeconds: number }
  /** The phone had PHONE_CODE.perPhone codes in the hour, or perPhonePerDay in the day: nothing changed. */
  | { status: 'too_many'; waitSeconds: number }
  /** `payload: 'keep'` and no code was waiting for this phone and purpose: nothing changed. */
  | { status: 'none' };

/**
 * Issues a code for a phone and purpose and queues its text by SMS through the configured
 * provider, in one transaction. One live code per phone and purpose: a new one replaces the old
 * one. A phone that opted out (STOP) gets no text, and its answer is the same as any other's
 * (the caller cannot tell), so nobody learns from it who opted out. The sender checks opt-outs
 * again at the moment of sending.
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
  },
): Promise<IssueOutcome> {
  const { phoneNumber, purpose, now, secret } = input;
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ sentAt: phoneCodes.sentAt, payload: phoneCodes.payload })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phoneNumber, phoneNumber), eq(phoneCodes.purpose, purpose)))
      .for('update');
    if (input.payload === 'keep' && !last) return { status: 'none' };
    const payload = input.payload === 'keep' ? (last?.payload ?? {}) : input.payload;
    const since = last ? now.getTime() - last.sentAt.getTime() : Infinity;
    if (since < PHONE_CODE.resendAfterMs) {
      return { status: 'too_soon', waitSeconds: Math.ceil((PHONE_CODE.resendAfterMs - since) / 1000) };
    }
    const waitSeconds = await phoneCapWait(tx, phoneNumber, now, secret);
    if (waitSeconds > 0) return { status: 'too_many', waitSeconds };
    const code = newPhoneCode();
    const expiresAt = new Date(now.getTime() + PHONE_CODE.validMs);
    const values = { codeHash: hashPhoneCode({ phoneNumber, purpose, code }, secret), tries: 0, payload, sentAt: now, expiresAt };
    const [row] = await tx
      .insert(phoneCodes)
      .values({ phoneNumber, purpose, ...values })
      .onConflictDoUpdate({ target: [phoneCodes.phoneNumber, phoneCodes.purpose], set: values })
      .returning({ id: phoneCodes.id });
    if (!row) throw new Error('upsert returned no row');
    if (await isOptedOut(tx, phoneNumber)) return { status: 'sent', text: null, expiresAt };
    const text = phoneCodeText(purpose, code);
    // Codes always go by SMS: a WhatsApp text outside the 24-hour window would need a template.
    await insertOutbound(tx, {
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
    return { status: 'sent', text, expiresAt };
  });
}

/** Counts a code to this phone per hour and per day; over either, the seconds until it may have one, else 0. */
async function phoneCapWait(tx: DbOrTx, phoneNumber: string, now: Date, secret: string): Promise<number> {
  const caps = [
    { key: `code:phone:${phoneNumber}`, max: PHONE_CODE.perPhone, windowMs: PHONE_CODE.windowMs },
    { key: `code:phone-day:${phoneNumber}`, max: PHONE_CODE.perPhonePerDay, windowMs: PHONE_CODE.dayMs },
  ];
  for (const cap of caps) {
    const [count] = await countAttempts(tx, [hashToken(cap.key, secret)], now, cap.windowMs);
    if (count && count.count > cap.max) return Math.ceil((count.windowEndsAt.getTime() - now.getTime()) / 1000);
  }
  return 0;
}

/** Deletes codes that expired (the scheduler does it every minute, with the attempt counts). */
export async function deleteExpiredPhoneCodes(db: Db, now: Date): Promise<void> {
  await db.delete(phoneCodes).where(sql`${phoneCodes.expiresAt} <= ${now.toISOString()}::timestamptz`);
}
