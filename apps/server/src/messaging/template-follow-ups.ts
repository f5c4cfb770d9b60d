import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { members, messages, users } from '../db/schema';
import { DAY_MS } from '../lib/clock';
import { insertOutboundRows, type TextKind } from './outbox';
import { templateVariable } from './text-limits';

/** How long after a template went out a reply still brings its whole text. */
export const FOLLOW_UP_WITHIN_MS = 7 * DAY_MS;

/** Texts whose words are the content (not a link to it): the ones a template may cut short. */
const FOLLOWED_KINDS: TextKind[] = ['group_message', 'sneak_peek', 'welcome', 'invitation'];

/**
 * A member's WhatsApp texts (the first at `at`, the last at `lastAt`) open WhatsApp's 24-hour
 * window, which is per channel: the window moves to the last of them (never back), and the whole
 * texts that templates cut short since the previous window go out (queueWholeTextsAfterTemplates),
 * to `phone` from the number that was texted. One statement reads the old window and moves it.
 * A person who writes to Loop on WhatsApp chose it (decision 0060): their first such text is
 * kept as their opt-in, which a 63016 (closing the window) does not undo.
 */
export async function openWhatsappWindow(
  tx: DbOrTx,
  input: { userId: number; phone: string | null; fromAddress: string; at: Date; lastAt?: Date },
): Promise<void> {
  const lastAt = (input.lastAt ?? input.at).toISOString();
  const result = await tx.execute(sql`
    update ${users} u set last_whatsapp_inbound_at = greatest(u.last_whatsapp_inbound_at, ${lastAt}::timestamptz),
      whatsapp_opted_in_at = coalesce(u.whatsapp_opted_in_at, ${input.at.toISOString()}::timestamptz)
    from (select id, last_whatsapp_inbound_at as before from ${users} where id = ${input.userId} for update) o
    where u.id = o.id
    returning extract(epoch from o.before)::float8 * 1000 as before_ms`);
  const [row] = (result as { rows: { before_ms: number | string | null }[] }).rows;
  if (!row || !input.phone) return;
  const windowEnd = row.before_ms === null ? null : new Date(Number(row.before_ms) + DAY_MS);
  await queueWholeTextsAfterTemplates(tx, {
    userId: input.userId,
    phone: input.phone,
    fromAddress: input.fromAddress,
    at: input.at,
    windowEnd,
  });
}

/**
 * Outside WhatsApp's 24-hour window a text goes as an approved template whose variables are one
 * short line each (Twilio: https://www.twilio.com/docs/content/create-templates-with-the-content-template-builder),
 * so a long or multi-line group message arrives cut short. When the member next texts on WhatsApp
 * (the window opens), Loop sends, free-form, the whole of each such text from the last 7 days,
 * once (idempotency key `full:{id}`). A text sent inside the previous window (it ended at
 * `windowEnd`) went free-form already and is not sent again.
 */
async function queueWholeTextsAfterTemplates(
  tx: DbOrTx,
  input: { userId: number; phone: string; fromAddress: string; at: Date; windowEnd: Date | null },
): Promise<number> {
  const { windowEnd } = input;
  const candidates = await tx
    .select({ id: messages.id, kind: messages.kind, body: messages.body, loopId: messages.loopId })
    .from(messages)
    .where(
      and(
        eq(messages.userId, input.userId),
        eq(messages.direction, 'outbound'),
        eq(messages.channel, 'whatsapp'),
        inArray(messages.status, ['sent', 'delivered', 'read']),
        inArray(messages.kind, FOLLOWED_KINDS),
        gt(messages.sentAt, new Date(input.at.getTime() - FOLLOW_UP_WITHIN_MS)),
        windowEnd ? gt(messages.sentAt, windowEnd) : undefined,
        or(isNull(messages.raw), sql`not (${messages.raw} ? 'followUpOf')`),
        // An invitation only while it still waits for an answer: after YES (handled before the
        // window opens, in the same transaction) it is never sent again before "you're in".
        sql`(${messages.kind} <> 'invitation' or exists (select 1 from ${members} pm
          where pm.loop_id = ${messages.loopId} and pm.user_id = ${messages.userId} and pm.status = 'pending'))`,
      ),
    )
    .orderBy(messages.sentAt, messages.id);
  // Only what the template could not carry whole: a text that fits one variable arrived complete.
  const cut = candidates.filter((m) => templateVariable(m.body) !== m.body);
  return insertOutboundRows(
    tx,
    cut.map((m) => ({
      channel: 'whatsapp' as const,
      toAddress: input.phone,
      fromAddress: input.fromAddress,
      kind: m.kind as TextKind,
      body: m.body,
      idempotencyKey: `full:${m.id}`,
      userId: input.userId,
      loopId: m.loopId,
      mediaUrls: [],
      raw: { followUpOf: String(m.id) },
    })),
  );
}
