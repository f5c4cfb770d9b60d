import { toE164 } from '@loop/shared/phone';
import type { FetchMediaOptions } from '../../messaging/fetch-media';
import type { MessageRow, MessagingContext } from '../../messaging/context';
import { collectInboundMedia } from '../../messaging/inbound-media';
import { simulatorScope } from '../../messaging/simulator';
import { applyOutcome } from './apply-outcome/apply-outcome';
import { recordOutcomes } from './apply-outcome/record-outcomes';
import { changesFacts, decideInbound, type Outcome } from './decide-inbound';
import { inboundSettings, inboundText } from './inbound-text';
import { readSenderFacts, type HeldFacts } from './sender-facts';

/**
 * Handles one stored inbound text: reads its sender's facts (or takes the worker's), lets
 * decideInbound say what the text does (unless the worker's batch decided it already, `decided`,
 * from those same facts), and applies that (applyOutcome): an opt-out or opt-in, a YES, the
 * updates with their photos (fetched and converted here), the reply. Safe to run again for the
 * same row: updates are unique per (message, Loop) and the reply per message.
 */
export async function handleInbound(
  ctx: MessagingContext,
  row: MessageRow,
  options: { fetchOptions?: FetchMediaOptions; held?: HeldFacts; decided?: Outcome } = {},
): Promise<void> {
  const { db, config, storage } = ctx;
  const text = inboundText(row, inboundSettings(config));
  const phone = toE164(row.fromAddress);
  // A WhatsApp user with a username only (whatsapp:XX.…, no phone number): Loop cannot match
  // or answer it. Kept, with why, so staff can see it.
  if (!phone) {
    const error = `Not handled: the sender ${row.fromAddress} has no phone number.`;
    return db.transaction((tx) => recordOutcomes(tx, [{ message: { row, phone }, status: 'ignored', userId: null, loopId: null, error }]));
  }
  // A simulator viewer playing someone else's phone reaches only the Loops they own.
  const scope = simulatorScope(row.toAddress, text.params);
  // What the worker read for this sender's texts (decision 0016), unless the simulator narrows it.
  const held = scope === null ? options.held?.facts : undefined;
  const facts = held ?? (await readSenderFacts(db, [phone], ctx.clock(), scope)).get(phone);
  if (!facts) throw new Error('no facts read for the sender');
  const outcome = (held === undefined ? undefined : options.decided) ?? decideInbound(text, facts);
  // A keyword or an answer changes what was read: the sender's later texts read it again.
  if (changesFacts(outcome) && options.held) options.held.facts = undefined;
  const media = () =>
    collectInboundMedia(text.params, {
      config,
      storage,
      fromSimulator: text.simulated,
      transcriber: ctx.transcriber,
      ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
    });
  await applyOutcome(ctx, { row, phone, userId: facts.user?.id ?? null, at: text.at, media }, outcome);
}
