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

/**
 * The raw parameter a simulated text carries when its viewer plays a phone that is not their own:
 * the ids of the Loops the viewer owns, the only ones the text may reach (decision 0015). Read only
 * from texts addressed to the simulator, which no real phone can send.
 */
export const SIMULATOR_SCOPE_PARAM = 'LoopSimulatorScope';

/** The Loop ids a simulated text is limited to, or null for a text that may reach all the sender's Loops. */
export function simulatorScope(toAddress: string, raw: Record<string, string>): number[] | null {
  const scope = raw[SIMULATOR_SCOPE_PARAM];
  if (scope === undefined || !isSimulatorAddress(toAddress)) return null;
  return scope === '' ? [] : scope.split(',').map(Number).filter(Number.isSafeInteger);
}

/** True for an address on the simulator's side, with or without the `whatsapp:` prefix. */
export function isSimulatorAddress(address: string): boolean {
  return address.replace(/^whatsapp:/, '') === SIMULATOR_ADDRESS;
}
