import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { hashToken, newToken, TOKEN_BYTES, type TokenKind } from '../../src/lib/tokens';
import { createInvite } from '../../src/services/invites/create-invite';
import { insertNewsletter } from '../../src/services/newsletters/insert-newsletter';
import type { PreparedNewsletter } from '../../src/services/newsletters/prepare-newsletter';
import { createSession } from '../../src/services/sessions/create-session';
import { localDiskStorage } from '../../src/storage/local-disk';
import { mediaUrl, STORAGE_KEY } from '../../src/storage/media-storage';

/**
 * docs/security.md#tokens: invite codes, newsletter urlIds, session tokens and photo paths carry at
 * least 128 random bits. The services make them with newToken(kind); these tests draw 10,000 of
 * each kind from it, and check that what the services hand out has the same shape.
 */
const KINDS = Object.keys(TOKEN_BYTES) as TokenKind[];
const COUNT = 10_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** base64url of n bytes, without padding. */
const lengthOf = (bytes: number) => Math.ceil((bytes * 8) / 6);

describe.each(KINDS)('%s tokens', (kind) => {
  it(`carry at least 128 random bits, in the base64url alphabet, and ${COUNT.toLocaleString('en-US')} never repeat`, () => {
    const bytes = TOKEN_BYTES[kind];
    expect(bytes * 8).toBeGreaterThanOrEqual(128);
    const tokens = Array.from({ length: COUNT }, () => newToken(kind));
    const malformed = tokens.filter(
      (token) => !BASE64URL.test(token) || token.length !== lengthOf(bytes) || Buffer.from(token, 'base64url').length !== bytes,
    );
    expect(malformed).toEqual([]);
    expect(new Set(tokens).size).toBe(COUNT);

    // Random, not merely unique: every bit position is set about half the time (a counter, a
    // clock or a short random part would leave whole positions fixed), and the characters spread
    // over the alphabet.
    const ones = new Array<number>(bytes * 8).fill(0);
    for (const token of tokens) {
      const raw = Buffer.from(token, 'base64url');
      for (let bit = 0; bit < bytes * 8; bit++) ones[bit]! += (raw[bit >> 3]! >> (7 - (bit & 7))) & 1;
    }
    // 10,000 fair coins: the share of ones is within 0.5 ± 0.03 with overwhelming likelihood (6 sigma).
    for (const count of ones) expect(Math.abs(count / COUNT - 0.5)).toBeLessThan(0.03);
    const alphabet = new Set(tokens.join(''));
    expect(alphabet.size).toBe(64);
  });
});

/**
 * The services themselves, against a stand-in that records what they would insert: they hand out
 * exactly these tokens (no database needed to see that).
 */
function recordingDb() {
  const inserted: Record<string, unknown>[] = [];
  const db = {
    insert: () => ({
      values: (row: Record<string, unknown>) => {
        inserted.push(row);
        const done = Promise.resolve([{ id: inserted.length, ...row }]);
        return Object.assign(done, { returning: () => done });
      },
    }),
    // A new invite link ends the Loop's older ones first (decision 0053): nothing to record there.
    update: () => ({ set: () => ({ where: () => Promise.resolve([]) }) }),
    transaction: <T>(work: (tx: unknown) => Promise<T>) => work(db),
  };
  return { db: db as unknown as Db, inserted };
}
const shape = (kind: TokenKind) => new RegExp(`^[A-Za-z0-9_-]{${lengthOf(TOKEN_BYTES[kind])}}$`);

describe('the services hand out these tokens', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('a session: the cookie carries the token, the database only its keyed hash', async () => {
    const { db, inserted } = recordingDb();
    const { token } = await createSession(db, { userId: 1, secret: 'test-secret-test-secret-test-secret-0123', now });
    expect(token).toMatch(shape('session'));
    expect(inserted[0]?.tokenHash).toBe(hashToken(token, 'test-secret-test-secret-test-secret-0123'));
    expect(JSON.stringify(inserted)).not.toContain(token);
  });

  it('an invite code, in the link too', async () => {
    const { db, inserted } = recordingDb();
    const invite = await createInvite(db, { loopId: 1, createdById: 1, now });
    expect(invite.code).toMatch(shape('invite'));
    expect(invite.inviteUrl).toBe(`/join/${invite.code}`);
    expect(inserted[0]?.code).toBe(invite.code);
  });

  it("a newsletter's urlId", async () => {
    const { db } = recordingDb();
    const prepared = {
      loop: { id: 1 },
      period: { start: now, end: now, updateCount: 1 },
      written: { title: 'T', content: 'C', writer: 'template', fellBack: false },
    } as unknown as PreparedNewsletter;
    const row = await insertNewsletter(db, prepared, { kind: 'newsletter', sentAt: null });
    expect(row.urlId).toMatch(shape('newsletterUrlId'));
  });

  it("a photo's storage key, which is its path", async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'loop-tokens-'));
    try {
      const storage = localDiskStorage(root);
      const keys = await Promise.all([1, 2, 3].map(() => storage.put(Buffer.from('photo'))));
      for (const key of keys) {
        expect(key).toMatch(shape('mediaKey'));
        expect(key).toMatch(STORAGE_KEY);
        expect(mediaUrl(key)).toBe(`/media/${key}`);
      }
      expect(new Set(keys).size).toBe(3);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
