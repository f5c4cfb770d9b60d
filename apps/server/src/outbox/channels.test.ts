import { describe, expect, it } from 'vitest';
import { messageChannel } from '../db/schema';
import { CHANNELS } from './channels';

describe('the registered channels (outbox/channels.ts)', () => {
  it('are texts (SMS, WhatsApp) and e-mail, each with its own pace and sweep', () => {
    expect(CHANNELS.map((c) => ({ name: c.name, channels: c.channels, wakeOn: c.wakeOn }))).toEqual([
      { name: 'texts', channels: ['sms', 'whatsapp'], wakeOn: 'outbound' },
      { name: 'email', channels: ['email'], wakeOn: 'email' },
    ]);
  });

  it('send every value of messages.channel, each by exactly one adapter', () => {
    // Calls come in only for now (decision 0067): Loop's own calls get their adapter with issue 41's second part.
    const inboundOnly = ['voice'];
    const sent = CHANNELS.flatMap((c) => c.channels);
    expect([...sent].sort()).toEqual(messageChannel.enumValues.filter((c) => !inboundOnly.includes(c)).sort());
    expect(new Set(CHANNELS.map((c) => c.name)).size).toBe(CHANNELS.length);
  });
});
