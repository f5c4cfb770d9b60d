import { describe, expect, it } from 'vitest';
import { recordOutcome } from './record-outcome';

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('recordOutcome (decision 0064)', () => {
  it('writes again while the database cannot be reached, until it answers', async () => {
    let calls = 0;
    const retried: unknown[] = [];
    const written = await recordOutcome(
      async () => {
        calls++;
        // drizzle wraps the driver's error: the cause is what says the database is gone.
        if (calls < 4) throw new Error('Failed query: update "messages" ...', { cause: unreachable() });
        return 'sent';
      },
      (error) => retried.push(error),
    );
    expect(written).toBe('sent');
    expect(calls).toBe(4);
    expect(retried).toHaveLength(3);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    await expect(
      recordOutcome(async () => {
        calls++;
        throw new Error('null value in column "status" violates not-null constraint');
      }),
    ).rejects.toThrow(/not-null/);
    expect(calls).toBe(1);
  });
});
