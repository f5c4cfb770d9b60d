import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { DAY_MS } from '../lib/clock';
import type { MessageRow, MessagingContext } from './context';
import type { Config } from '../config';
import { smsSegments } from './segments';
import { isSimulatorAddress, SIMULATOR_ADDRESS } from './simulator';
import { fillWhatsappTemplate } from './whatsapp-templates';

export interface DeliveryPlan {
  channel: 'sms' | 'whatsapp';
  from: string;
  to: string;
  template?: { contentSid: string; variables: Record<string, string> };
}

/**
 * How a queued text goes out, decided when it is sent: WhatsApp free-form inside the 24 hours
 * after the member's last text, else the template configured for its kind (whatsapp-templates.ts,
 * with every variable it names queued), else SMS.
 * `lastWhatsappInboundAt` is the member's last WhatsApp text when the caller read it already (see
 * claimTexts and sendableTextsQuery). Only a WhatsApp text opens the window: an SMS does not.
 */
export async function planDelivery(ctx: MessagingContext, row: MessageRow, lastWhatsappInboundAt?: Date | null): Promise<DeliveryPlan> {
  const { config } = ctx;
  const simulated = config.messagingProvider === 'simulator' || isSimulatorAddress(row.fromAddress);
  const sms = () => {
    const own = row.fromAddress !== '' && !row.fromAddress.startsWith('whatsapp:') ? row.fromAddress : undefined;
    const from = simulated ? SIMULATOR_ADDRESS : (own ?? config.TWILIO_MESSAGING_SERVICE_SID ?? config.TWILIO_FROM_NUMBER ?? '');
    return { channel: 'sms' as const, from, to: row.toAddress };
  };
  if (row.channel !== 'whatsapp') return sms();

  const configured = config.TWILIO_WHATSAPP_FROM ? withPrefix(config.TWILIO_WHATSAPP_FROM) : undefined;
  const from = simulated ? `whatsapp:${SIMULATOR_ADDRESS}` : row.fromAddress.startsWith('whatsapp:') ? row.fromAddress : configured;
  if (!from) return sms();
  const whatsapp = { channel: 'whatsapp' as const, from, to: withPrefix(row.toAddress) };
  // A reply answers a text that just arrived on this channel: inside the window.
  if (row.kind === 'reply' || row.kind === 'opt_out_notice' || (await insideWindow(ctx, row.userId, lastWhatsappInboundAt)))
    return whatsapp;
  const contentSid = config.TWILIO_WHATSAPP_TEMPLATES[row.kind];
  const variables = contentSid ? fillWhatsappTemplate(row.kind, storedVariables(row)) : null;
  if (contentSid && variables) return { ...whatsapp, template: { contentSid, variables } };
  return sms();
}

/**
 * What a planned text costs its sender's pace (decision 0039): whose budget, and how many of its
 * slots. Carriers count SMS segments, so an SMS takes smsSegments(body) slots (an MMS, a WhatsApp
 * text or template: one). With a Messaging Service, every SMS from one of its numbers counts on the
 * service's one budget, replies (sent from the number that was texted) and broadcasts (sent from
 * the service) alike, so together they never exceed SEND_RATE_PER_SECOND.
 */
export function paceOf(
  config: Pick<Config, 'TWILIO_MESSAGING_SERVICE_SID'>,
  plan: DeliveryPlan,
  row: Pick<MessageRow, 'body' | 'mediaUrls'>,
) {
  if (plan.channel === 'whatsapp') return { sender: plan.from, segments: 1 };
  const service = config.TWILIO_MESSAGING_SERVICE_SID;
  const sender = service && !plan.from.startsWith('MG') && !isSimulatorAddress(plan.from) ? service : plan.from;
  return { sender, segments: row.mediaUrls.length > 0 ? 1 : smsSegments(row.body) };
}

async function insideWindow(ctx: MessagingContext, userId: number | null, known: Date | null | undefined): Promise<boolean> {
  if (userId === null) return false;
  let last = known;
  if (last === undefined) {
    const [user] = await ctx.db.select({ lastWhatsappInboundAt: users.lastWhatsappInboundAt }).from(users).where(eq(users.id, userId));
    last = user?.lastWhatsappInboundAt;
  }
  return last != null && ctx.clock().getTime() - last.getTime() < DAY_MS;
}

/**
 * The template variables queued with the text (whatsapp-templates.ts fills and checks them against
 * its kind's template); null when none were.
 */
function storedVariables(row: MessageRow): Record<string, unknown> | null {
  const stored = row.raw?.contentVariables;
  if (!stored) return null;
  const parsed: unknown = JSON.parse(stored);
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
}

function withPrefix(address: string): string {
  return address.startsWith('whatsapp:') ? address : `whatsapp:${address}`;
}
