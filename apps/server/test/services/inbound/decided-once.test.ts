import { describe, expect, it, vi } from 'vitest';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { ingestInbound } from '../../../src/messaging/ingest-inbound';
import type * as DecideInbound from '../../../src/services/inbound/decide-inbound';
import { JPEG, createLoop, createPerson, textsTo, updatesOf, useFakeTwilioApp } from '../../helpers/messaging';
import { mmsParams, sid, smsParams } from '../../helpers/twilio-fixtures';

/** The real decideInbound, counted: which texts it was asked about, by body. */
const asked = vi.hoisted(() => [] as string[]);
vi.mock('../../../src/services/inbound/decide-inbound', async (importOriginal) => {
  const original = await importOriginal<typeof DecideInbound>();
  return {
    ...original,
    decideInbound: (...args: Parameters<typeof original.decideInbound>) => {
      asked.push(args[0].body);
      return original.decideInbound(...args);
    },
  };
});

const env = useFakeTwilioApp();

describe('a text is decided once (applyOutcome)', () => {
  it('a text with a photo: decided by the batch that took it, applied alone with that outcome', async () => {
    const db = env.db();
    const person = await createPerson(db, { firstName: 'Ana' });
    const loop = await createLoop(db, { name: 'Once', memberIds: [person.id] });
    const photo = env.fake.addMedia(
      `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`,
      JPEG,
      'image/jpeg',
    );
    const accountSid = env.fake.accountSid;
    await ingestInbound(
      db,
      mmsParams({ accountSid, from: person.phoneNumber, body: 'At the lake', media: [{ url: photo, contentType: 'image/jpeg' }] }),
      new Date(),
    );
    await ingestInbound(db, smsParams({ accountSid, from: person.phoneNumber, body: 'LOOPS' }), new Date());
    await ingestInbound(db, smsParams({ accountSid, from: person.phoneNumber, body: 'And home again' }), new Date());
    asked.length = 0;

    await sweepUntilIdle(env.t.app.ctx);

    const [update] = (await updatesOf(db, loop.id)).filter((u) => u.content === 'At the lake');
    expect(update?.media).toHaveLength(1);
    expect((await textsTo(db, person.phoneNumber)).map((t) => t.body)).toEqual([
      'Thanks Ana! Your update and photo went to "Once".',
      expect.stringContaining('Once'),
      'Thanks Ana! Your update went to "Once".',
    ]);
    expect(asked).toEqual(['At the lake', 'LOOPS', 'And home again']);
  });
});
