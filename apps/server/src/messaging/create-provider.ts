import type { Config } from '../config';
import type { MessagingProvider } from './provider';
import { isSimulatorAddress, simulatorProvider } from './simulator';
import { createTwilioProvider } from './twilio';

/** The configured provider: Twilio (one client, so its connections are reused) or the simulator. Built once per app. */
export function createMessagingProvider(config: Config): MessagingProvider {
  return config.messagingProvider === 'simulator' ? simulatorProvider : createTwilioProvider(config);
}

/**
 * The provider that sends a text from `from`: the simulator for the simulator's own address
 * (replies to the Phone Simulator never reach a real phone, even with Twilio configured), else the
 * configured one.
 */
export function providerFor(provider: MessagingProvider, from: string): MessagingProvider {
  return isSimulatorAddress(from) ? simulatorProvider : provider;
}
