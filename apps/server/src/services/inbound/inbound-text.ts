import type { Config } from '../../config';
import { textChannel, type MessageRow } from '../../messaging/context';
import { isSimulatorAddress } from '../../messaging/simulator';

/** What deciding a message looks at besides its sender's facts, whichever channel brought it. */
export interface InboundText {
  body: string;
  /** A text (SMS, WhatsApp) or a reply to a member's e-mail address. */
  channel: 'sms' | 'whatsapp' | 'email';
  /** Twilio's form parameters: OptOutType, NumMedia, MessageType, Latitude, Longitude. */
  params: Record<string, string>;
  /** What it carries when Twilio's NumMedia does not say (an e-mail's attachments). */
  attachments?: number;
  /** When it arrived: a numbered reply answers a "which Loop?" question still open then. */
  at: Date;
  /** From the Phone Simulator, which plays Twilio's answers on SMS. */
  simulated: boolean;
  /** TWILIO_KEYWORD_REPLIES: who answers START and HELP on SMS. */
  keywordReplies: Config['TWILIO_KEYWORD_REPLIES'];
  /** SUPPORT_CONTACT (or its default), which the HELP answer names (CTIA 5.1.3). */
  supportContact: string;
  /** SESSION_SECRET: a DELETE's code is checked against its keyed hash (decision 0045). */
  codeSecret: string;
}

/** The settings deciding a text reads. */
export type InboundSettings = Pick<InboundText, 'keywordReplies' | 'supportContact' | 'codeSecret'>;

export function inboundSettings(config: Pick<Config, 'TWILIO_KEYWORD_REPLIES' | 'supportContact' | 'SESSION_SECRET'>): InboundSettings {
  return { keywordReplies: config.TWILIO_KEYWORD_REPLIES, supportContact: config.supportContact, codeSecret: config.SESSION_SECRET };
}

/** A message Loop sends back; `opt_out_notice` is the only kind that reaches a phone that opted out. */
export interface Reply {
  body: string;
  kind: 'reply' | 'opt_out_notice';
}

/** A text as deciding it needs it, from its stored row. */
export function inboundText(row: MessageRow, settings: InboundSettings): InboundText {
  const params = row.raw ?? {};
  return {
    body: params.Body ?? row.body,
    channel: textChannel(row.channel),
    params,
    at: row.createdAt,
    simulated: isSimulatorAddress(row.toAddress),
    ...settings,
  };
}
