import type { ChannelAdapter } from './channel';
import { emailChannel } from './email/channel';
import { textsChannel } from './texts/channel';

/**
 * Every way out of the outbox, one line each (decision 0063). The message worker runs one sweep
 * loop per entry; a new channel (a voice call, a letter) is its folder and a line here.
 */
export const CHANNELS: readonly ChannelAdapter[] = [
  textsChannel, // sms, whatsapp
  emailChannel, // email
];
