import { randomToken } from '../lib/tokens';
import type { MessagingProvider, OutgoingText, SentText } from './provider';

/**
 * Our side of the Phone Simulator: the "number" simulated phones text, and the sender of every
 * text the simulator shows. Not a phone number, so it can never reach a real phone.
 */
export const SIMULATOR_ADDRESS = 'loop-simulator';

/** Nothing leaves the machine: the outbound row itself is what the simulator shows. */
export const simulatorProvider: MessagingProvider = {
  name: 'simulator',
  async send(_text: OutgoingText): Promise<SentText> {
    return { providerMessageId: `SIM${randomToken(16)}` };
  },
};

/** True for an address on the simulator's side, with or without the `whatsapp:` prefix. */
export function isSimulatorAddress(address: string): boolean {
  return address.replace(/^whatsapp:/, '') === SIMULATOR_ADDRESS;
}
