import type { Config } from '../config';
import type { MessagingProvider } from './provider';
import { isSimulatorAddress, simulatorProvider } from './simulator';
import { createTwilioProvider } from './twilio';

const twilioProviders = new WeakMap<Config, MessagingProvider>();

/**
 * The provider that sends a text from `from`: the simulator for the simulator's own address
 * (replies to the Phone Simulator never reach a real phone, even with Twilio configured), else the
 * configured one. One Twilio client per config, so its connections are reused.
 */
export function providerFor(config: Config, from: string): MessagingProvider {
  if (config.messagingProvider === 'simulator' || isSimulatorAddress(from)) return simulatorProvider;
  let provider = twilioProviders.get(config);
  if (!provider) {
    provider = createTwilioProvider(config);
    twilioProviders.set(config, provider);
  }
  return provider;
}
