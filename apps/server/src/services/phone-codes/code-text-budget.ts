import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import { phoneKind } from '@loop/shared/phone-kind';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { codeTexts } from '../../db/schema';
import { AppError } from '../../errors';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { waitText } from '../attempts/enforce-limits';

/**
 * How many code texts may go out that nobody types in (decision 0051). Only texts actually queued
 * count, and a code typed in stops counting: people finishing sign-up never use the budget up;
 * SMS pumping, whose codes nobody reads, does.
 */
export interface CodeTextLimits {
  /** Unused codes per number prefix (the number without its last 4 digits) per hour: past it, none to that prefix. */
  perPrefix: number;
  /** Unused codes per country other than `homeCountry` per hour: past it, none to that country (Infinity: no such cap). */
  perCountryAbroad: number;
  /** The first of SMS_COUNTRIES: no country cap there (the prefix cap and the proof-of-work hold it). */
  homeCountry: string | null;
  /** Unused codes per hour for the whole service past which the proof-of-work hardens (never a refusal). */
  perHour: number;
}

export function codeTextLimits(
  config: Pick<Config, 'CODE_TEXTS_PER_HOUR' | 'CODE_TEXTS_PER_PREFIX' | 'smsCountries' | 'TWILIO_FROM_NUMBER'>,
): CodeTextLimits {
  // Home: the first of SMS_COUNTRIES, else the sender's own country. With `all` and no sender
  // number (the Phone Simulator, which pays for nothing) no country is capped.
  const sender = config.TWILIO_FROM_NUMBER ? phoneKind(config.TWILIO_FROM_NUMBER).country : null;
  const homeCountry = config.smsCountries === 'all' ? sender : (config.smsCountries[0] ?? null);
  return {
    perPrefix: config.CODE_TEXTS_PER_PREFIX,
    perCountryAbroad: homeCountry ? Math.max(5, Math.floor(config.CODE_TEXTS_PER_HOUR / 4)) : Infinity,
    homeCountry,
    perHour: config.CODE_TEXTS_PER_HOUR,
  };
}

/** A code not texted because its prefix or country had too many unused codes this hour: a 429 that says so. */
export class CodesHeldError extends AppError {
  constructor(
    readonly scope: 'prefix' | 'country',
    waitSeconds: number,
  ) {
    const where = scope === 'prefix' ? 'numbers starting like this one' : 'numbers in this country';
    super(
      'too_many_requests',
      `No code was sent: many codes Loop texted to ${where} in the last hour were never used, so it sends no more for now. Please try again ${waitText(waitSeconds * 1000)}.`,
    );
  }
}

/** The number's prefix as Loop counts it: the number without its last 4 digits (a US 10,000-number block). */
export function numberPrefix(phoneNumber: string): string {
  return phoneNumber.slice(0, Math.max(3, phoneNumber.length - 4));
}

const unused = (now: Date) => and(isNull(codeTexts.usedAt), gt(codeTexts.sentAt, new Date(now.getTime() - HOUR_MS)));

/**
 * Whether a code to this phone is held back (Twilio Verify's Fraud Guard and Geo Permissions):
 * its prefix, or its country abroad, had their share of unused codes in the last hour. The wait
 * is until the oldest of them is an hour old. One statement, the same whatever the answer.
 */
export async function codeTextHold(tx: DbOrTx, phoneNumber: string, now: Date, limits: CodeTextLimits): Promise<CodesHeldError | null> {
  const prefix = numberPrefix(phoneNumber);
  const country = phoneKind(phoneNumber).country ?? '';
  const [row] = await tx
    .select({
      prefix: sql<number>`count(*) filter (where ${codeTexts.prefix} = ${prefix})`.mapWith(Number),
      prefixOldest: sql<string | null>`min(${codeTexts.sentAt}) filter (where ${codeTexts.prefix} = ${prefix})`,
      country: sql<number>`count(*) filter (where ${codeTexts.country} = ${country})`.mapWith(Number),
      countryOldest: sql<string | null>`min(${codeTexts.sentAt}) filter (where ${codeTexts.country} = ${country})`,
    })
    .from(codeTexts)
    .where(and(unused(now), sql`(${codeTexts.prefix} = ${prefix} or ${codeTexts.country} = ${country})`));
  const wait = (oldest: string | null | undefined) =>
    Math.max(1, Math.ceil(((oldest ? Date.parse(oldest) : now.getTime()) + HOUR_MS - now.getTime()) / 1000));
  if ((row?.prefix ?? 0) >= limits.perPrefix) return new CodesHeldError('prefix', wait(row?.prefixOldest));
  const abroad = country !== limits.homeCountry;
  if (abroad && (row?.country ?? 0) >= limits.perCountryAbroad) return new CodesHeldError('country', wait(row?.countryOldest));
  return null;
}

/** Records a code text queued (in the transaction that queues it). */
export async function recordCodeText(tx: DbOrTx, input: { phoneNumber: string; codeHash: string; now: Date }): Promise<void> {
  const country = phoneKind(input.phoneNumber).country ?? '';
  await tx.insert(codeTexts).values({ prefix: numberPrefix(input.phoneNumber), country, codeHash: input.codeHash, sentAt: input.now });
}

/** A code was typed in and used: its text no longer counts as unused. */
export async function markCodeTextUsed(tx: DbOrTx, codeHash: string): Promise<void> {
  await tx
    .update(codeTexts)
    .set({ usedAt: sql`now()` })
    .where(and(eq(codeTexts.codeHash, codeHash), isNull(codeTexts.usedAt)));
}

/** The whole service had CODE_TEXTS_PER_HOUR unused codes in the last hour: forms that text a code need the harder proof-of-work. */
export async function codeTextsUnderAttack(db: DbOrTx, now: Date, limits: Pick<CodeTextLimits, 'perHour'>): Promise<boolean> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(codeTexts)
    .where(unused(now));
  return (row?.n ?? 0) >= limits.perHour;
}

/** Forgets code texts older than a day (the scheduler, every minute). */
export async function deleteOldCodeTexts(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(codeTexts).where(lte(codeTexts.sentAt, new Date(now.getTime() - DAY_MS)));
}
