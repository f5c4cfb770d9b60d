import type { MessageRow, MessagingContext } from '../../../messaging/context';
import type { InboundMedia } from '../../../messaging/inbound-media';
import type { Outcome } from '../decide-inbound';

/**
 * One stored inbound message as applying its outcome needs it, whichever channel brought it: a
 * text (SMS, WhatsApp) or a reply to a member's e-mail address. The channel is the row's.
 */
export interface InboundMessage {
  row: MessageRow;
  /** The sender's phone (E.164): whose STOP, invitations and erasure these are. */
  phone: string;
  /** The sender's account, if the phone has one: the row is theirs. */
  userId: number | null;
  /** When it arrived, as the decision read it (a text: its row's time; an e-mail: when it was read). */
  at: Date;
  /** The Loop an e-mail reply's address names: its row keeps it, whatever the outcome. */
  loopId?: number;
  /** Fetches and converts what it carries (photos, clips), for an outcome that shares them. */
  media: () => Promise<InboundMedia>;
}

/** What one kind of outcome does (acts/*): its writes, then how the message ends (recordOutcomes). */
export type Act<K extends Outcome['kind']> = (
  ctx: MessagingContext,
  message: InboundMessage,
  outcome: Extract<Outcome, { kind: K }>,
) => Promise<void>;
