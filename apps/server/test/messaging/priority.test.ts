import { describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { claimTexts } from '../../src/outbox/texts/claim-texts';
import { insertOutbound, insertOutboundRows, type OutboundRow, type TextKind } from '../../src/messaging/outbox';
import { uniquePhone } from '../helpers/app';
import { useFakeTwilioApp } from '../helpers/messaging';

/**
 * A code or an answer someone waits for goes before bulk texts (decision 0051): the claim every
 * process shares takes awaited texts first and keeps a share for bulk, so neither waits forever.
 */
const app = useFakeTwilioApp();

const rows = (kind: TextKind, count: number): OutboundRow[] =>
  Array.from({ length: count }, () => ({
    channel: 'sms',
    toAddress: uniquePhone(),
    fromAddress: '',
    kind,
    body: `Loop: a ${kind}`,
    idempotencyKey: `${kind}:${Math.random()}`,
    userId: null,
    loopId: null,
    mediaUrls: [],
  }));

describe('codes go before bulk texts', () => {
  it('60 invitations queued, then a sign-up code: the code goes first, and every invitation still goes', async () => {
    const invitations = rows('invitation', 60);
    const [code] = rows('code', 1);
    // One commit, so the worker running in the background finds them together, the code last.
    await app.db().transaction(async (tx) => {
      await insertOutboundRows(tx, invitations);
      await insertOutbound(tx, code!);
    });
    await sweepUntilIdle(app.t.app.ctx);
    const order = app.fake.sent.map((s) => String(s.params.To));
    // It is started first; SEND_CONCURRENCY texts go side by side, so Twilio may see a few of the
    // first ones before it. Before, first-in first-out, it started 61st, after 29 had finished.
    expect(order.indexOf(code!.toAddress)).toBeLessThan(10);
    expect(new Set(order.slice(1))).toEqual(new Set(invitations.map((r) => r.toAddress)));
  });

  it('awaited texts never starve bulk: while more are due than a claim takes, each claim keeps a tenth for bulk', async () => {
    await app.db().delete(messages);
    const bulk = rows('reminder', 30);
    await insertOutboundRows(app.db(), bulk);
    await insertOutboundRows(app.db(), [...rows('code', 20), ...rows('reply', 20)]);
    const now = new Date();
    const claimed = await claimTexts(app.db(), { now, leaseUntil: new Date(now.getTime() + 60_000), limit: 20 });
    expect(claimed.map((r) => r.kind)).toEqual([...Array<string>(20).fill('code'), 'reminder', 'reminder']);
    const next = await claimTexts(app.db(), { now, leaseUntil: new Date(now.getTime() + 60_000), limit: 20 });
    expect(next.map((r) => r.kind)).toEqual([...Array<string>(20).fill('reply'), 'reminder', 'reminder']);
  });
});
