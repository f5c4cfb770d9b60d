import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { messages, users } from '../db/schema';
import { DAY_MS } from '../lib/clock';
import { insertOutboundRows, type TextKind } from './outbox';
import { templateVariable } from './text-limits';

/** How long after a template went out a reply still brings its whole text. */
export const FOLLOW_UP_WITHIN_MS = 7 * DAY_MS;

/** Texts whose words are the content (not a link to it): the ones a template may cut short. */
const FOLLOWED_KINDS: TextKind[] = ['bulk', 'sneak_peek', 'welcome', 'invitation'];

/**
 * Outside WhatsApp's 24-hour window a text goes as an approved template whose variables are one
 * short line each (Twilio: https://www.twilio.com/docs/content/create-templates-with-the-content-template-builder),
 * so a long or multi-line group text arrives cut short. When the member next texts on WhatsApp
 * (the window opens), Loop sends, free-form, the whole of each such text from the last 7 days,
 * once (idempotency key `full:{id}`). Call it before the window is moved to this text: a text
 * sent inside the previous window went free-form already and is not sent again.
 */
export async function queueWholeTextsAfterTemplates(tx: DbOrTx, input: { userId: number; phone: string; fromAddress: string; at: Date }): Promise<number> {
  const [user] = await tx.select({ last: users.lastWhatsappInboundAt }).from(users).where(eq(users.id, input.userId));
  if (!user) return 0;
  const windowEnd = user.last ? new Date(user.last.getTime() + DAY_MS) : null;
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
