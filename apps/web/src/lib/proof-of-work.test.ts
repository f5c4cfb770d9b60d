import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/test/server';
import { takeProofOfWork } from '@/lib/proof-of-work';

const SECRET = 'test-secret-test-secret';

describe('the proof-of-work a form sends (decision 0030)', () => {
  it('fetches the server’s challenge and sends it back solved, as base64 of { challenge, solution }', async () => {
    // A cheap challenge: the real one is PBKDF2 x 1,000 iterations, counter 1,000 to 4,000.
    const challenge = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 10,
      counter: 40,
      deriveKey,
      hmacSignatureSecret: SECRET,
      hmacKeySignatureSecret: SECRET,
    });
    let asked = 0;
    server.use(
      http.get('*/api/proof-of-work', () => {
        asked++;
        return HttpResponse.json({ challenge });
      }),
    );
    const proof = await takeProofOfWork();
    expect(asked).toBe(1);
    const sent = JSON.parse(atob(proof ?? '')) as Parameters<typeof verifySolution>[0];
    expect(sent.challenge).toEqual(challenge);
    const checked = await verifySolution({ ...sent, deriveKey, hmacSignatureSecret: SECRET, hmacKeySignatureSecret: SECRET });
    expect(checked.verified).toBe(true);
  });

  it('sends nothing when the server asks for no proof', async () => {
    server.use(http.get('*/api/proof-of-work', () => HttpResponse.json({ challenge: null })));
    expect(await takeProofOfWork()).toBeUndefined();
  });
});
