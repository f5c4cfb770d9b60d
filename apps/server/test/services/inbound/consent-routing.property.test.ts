import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { members, updates } from '../../../src/db/schema';
import { sweepUntilIdle } from '../../../src/jobs/message-worker';
import { ingestInbound } from '../../../src/messaging/ingest-inbound';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { nameKey } from '../../../src/services/inbound/route-text';
import { inArray } from 'drizzle-orm';
import { createLoop, createPerson, testClock, useFakeTwilioApp } from '../../helpers/messaging';
import { smsParams } from '../../helpers/twilio-fixtures';

// Membership consent (decision 0015): for random Loops, memberships (pending, active, removed, opted out) and texts (plain,
// "Name: ...", #hashtags, names two Loops share), a text lands only in its sender's active
// memberships, and only where it was addressed; a tie stores nothing.
const clock = testClock();
const env = useFakeTwilioApp({ clock });

// 'Alpha' and 'alpha' tie; 'Beta Team' is spelled "#betateam" or "#beta-team"; none is a prefix of another.
const NAMES = ['Alpha', 'alpha', 'Beta Team', 'Gamma'];
const membership = fc.constantFrom('active', 'pending', 'removed');
const world = fc.record({
  loops: fc.array(fc.record({ name: fc.constantFrom(...NAMES), membership }), { minLength: 1, maxLength: 4 }),
  optedOut: fc.boolean(),
  text: fc.oneof(
    fc.constant({ kind: 'plain' as const, name: '' }),
    fc.record({ kind: fc.constant('prefix' as const), name: fc.constantFrom(...NAMES, 'Delta') }),
    fc.record({ kind: fc.constant('tag' as const), name: fc.constantFrom(...NAMES, 'Delta') }),
  ),
});

function spell(text: { kind: 'plain' | 'prefix' | 'tag'; name: string }): string {
  if (text.kind === 'plain') return 'We went to the lake';
  if (text.kind === 'prefix') return `${text.name}: we went to the lake`;
  return `we went to the lake #${text.name.replace(' ', '-')}`;
}

describe('routing with consent (property)', () => {
  it('a text lands only in active memberships of its sender, only where addressed, never on a tie', async () => {
    const db = env.db();
    const owner = await createPerson(db, { firstName: 'Owner' });
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const sender = await createPerson(db, { firstName: 'Sender' });
        const built = [];
        for (const l of w.loops) {
          const loop = await createLoop(db, { name: l.name, memberIds: [], creatorId: owner.id });
          if (l.membership !== 'removed') await db.insert(members).values({ loopId: loop.id, userId: sender.id, status: l.membership });
          built.push({ ...l, id: loop.id });
        }
        if (w.optedOut) await optOutPhone(db, sender.phoneNumber, 'STOP', clock());
        await ingestInbound(db, smsParams({ accountSid: env.fake.accountSid, from: sender.phoneNumber, body: spell(w.text) }), clock());
        await sweepUntilIdle(env.t.app.ctx);

        const stored = await db
          .select({ loopId: updates.loopId })
          .from(updates)
          .where(
            inArray(
              updates.loopId,
              built.map((b) => b.id),
            ),
          );
        const got = stored.map((s) => s.loopId).sort((a, b) => a - b);
        const active = built.filter((b) => b.membership === 'active');
        let expected: number[];
        // STOP is absolute: an opted-out phone's text is shared with no one (decision 0014).
        if (w.optedOut) expected = [];
        else if (w.text.kind === 'plain') expected = active.map((b) => b.id);
        else {
          const matches = active.filter((b) => nameKey(b.name) === nameKey(w.text.name));
          if (matches.length === 1) expected = matches.map((b) => b.id);
          else if (matches.length > 1) expected = [];
          else expected = active.length === 1 ? active.map((b) => b.id) : [];
        }
        expect(got).toEqual(expected.sort((a, b) => a - b));
        for (const id of got) expect(active.map((b) => b.id)).toContain(id);
      }),
      { numRuns: 40 },
    );
  });
});

// Consent is given to one Loop (decision 0033): whatever invitations are open (sent or withheld,
// under shared names) and whatever the person answers, one text activates at most one membership,
// and a withheld one only by a number picked from the question or a YES that names its Loop.
const answers = fc.array(fc.constantFrom('YES', 'yes', 'JOIN', 'Alpha: YES', 'YES #gamma', '1', '2', '3', 'START', 'hello'), {
  minLength: 1,
  maxLength: 5,
});
const invitations = fc.array(fc.record({ name: fc.constantFrom(...NAMES), withheld: fc.boolean() }), { minLength: 1, maxLength: 3 });

describe('one YES, one Loop (property)', () => {
  it('a text activates at most one membership, a withheld one never by a bare YES', async () => {
    const db = env.db();
    const owner = await createPerson(db, { firstName: 'Owner' });
    await fc.assert(
      fc.asyncProperty(invitations, fc.boolean(), answers, async (invited, optedOut, texts) => {
        const sender = await createPerson(db, { firstName: 'Sender' });
        const ids: number[] = [];
        for (const inv of invited) {
          const loop = await createLoop(db, { name: inv.name, memberIds: [], creatorId: owner.id });
          const [m] = await db
            .insert(members)
            .values({ loopId: loop.id, userId: sender.id, status: 'pending', invitedAt: clock(), invitationWithheld: inv.withheld })
            .returning();
          ids.push(m!.id);
        }
        if (optedOut) await optOutPhone(db, sender.phoneNumber, 'STOP', clock());
        const active = async () =>
          new Set((await db.select().from(members).where(inArray(members.id, ids))).filter((m) => m.status === 'active').map((m) => m.id));
        let before = await active();
        for (const body of texts) {
          await ingestInbound(db, smsParams({ accountSid: env.fake.accountSid, from: sender.phoneNumber, body }), clock());
          await sweepUntilIdle(env.t.app.ctx);
          const after = await active();
          const joined = [...after].filter((id) => !before.has(id));
          expect(joined.length).toBeLessThanOrEqual(1);
          const withheld = joined.filter((id) => invited[ids.indexOf(id)]?.withheld);
          if (withheld.length > 0) expect(['YES', 'yes', 'JOIN', 'START', 'hello']).not.toContain(body);
          before = after;
        }
      }),
      { numRuns: 25 },
    );
  });
});
