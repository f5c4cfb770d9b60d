import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { ROUTES, type Case } from './authorization-routes';
import { ACTORS, createWorld, hiddenFrom, NOW, roleIn, type World } from './authorization-world';

/**
 * docs/security.md#authorization: over (role, Loop, object, route), nobody but staff reads or changes
 * anything of a Loop they are not in, and nobody but staff reaches an admin route. Each case
 * checks the status the rules give, that no secret of a Loop the person may not see is in the
 * answer, that a refused request changed no row at all, and that even an allowed one changed no
 * row of the other Loop. SECURITY_PROPERTY_RUNS raises the number of cases (default 600).
 */
const RUNS = Number(process.env.SECURITY_PROPERTY_RUNS ?? 600);

let t: TestContext;
let world: World;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' }, { clock: () => NOW });
  world = await createWorld(t);
});
afterAll(() => t.close());

const caseArbitrary = fc.record({
  route: fc.integer({ min: 0, max: ROUTES.length - 1 }),
  actor: fc.constantFrom(...ACTORS),
  path: fc.constantFrom('A' as const, 'B' as const),
  object: fc.constantFrom('A' as const, 'B' as const),
  person: fc.constantFrom('owner' as const, 'member' as const, 'extra' as const),
});

/** The actor's relation to the Loop in the path, in the words of the issue. */
function roleName(c: Case): string {
  const role = roleIn(c.actor, c.path);
  if (role) return role;
  if (c.actor === 'signedOut' || c.actor === 'stranger') return c.actor;
  return `${c.actor.startsWith('owner') ? 'owner' : 'member'} of another Loop`;
}

describe('authorization across Loops (property)', () => {
  it(`holds for ${RUNS} random (role, Loop, object, route) cases`, async () => {
    const seen = { routes: new Set<string>(), roles: new Set<string>(), refused: 0, allowed: 0 };
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ route: index, ...c }) => {
        const route = ROUTES[index];
        if (!route) throw new Error('no route');
        const url = route.url(world, c);
        const payload = route.payload?.(world, c);
        const cookie = world.cookie(c.actor);
        const label = `${route.name} as ${c.actor} (${roleName(c)}), path Loop ${c.path}, object of Loop ${c.object} (${c.person})`;

        const before = await world.digests();
        const res = await t.app.inject({
          method: route.method,
          url,
          headers: { ...(cookie ? { cookie } : {}), accept: 'application/json, text/html' },
          ...(payload ? { payload } : {}),
        });
        const after = await world.digests();

        expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(route.expected(c));
        // What the person sent is not a leak; everything else of a Loop they may not see is.
        const sent = `${url} ${JSON.stringify(payload ?? {})}`;
        const leaked = hiddenFrom(world, c.actor).filter((secret) => !sent.includes(secret) && res.body.includes(secret));
        expect(leaked, `${label} leaked`).toEqual([]);
        if (res.statusCode >= 400) {
          // The public page answers a person with HTML; the API answers with a readable message.
          if (!String(res.headers['content-type']).startsWith('text/html'))
            expect(typeof res.json<{ message?: unknown }>().message, label).toBe('string');
          expect(after.all, `${label}: a refused request changed rows`).toBe(before.all);
        }
        const changed = res.statusCode < 400 ? route.changes?.(c) : undefined;
        for (const key of ['A', 'B'] as const) {
          if (key !== changed) expect(after[key], `${label}: Loop ${key} changed`).toBe(before[key]);
        }

        seen.routes.add(route.name);
        seen.roles.add(roleName(c));
        if (res.statusCode >= 400) seen.refused += 1;
        else seen.allowed += 1;
        if (changed) await world.rebuild(changed);
      }),
      { numRuns: RUNS, ...(process.env.SECURITY_PROPERTY_SEED ? { seed: Number(process.env.SECURITY_PROPERTY_SEED) } : {}) },
    );
    // Every route and every role was tried, both ways.
    expect([...seen.routes].sort()).toEqual(ROUTES.map((r) => r.name).sort());
    expect([...seen.roles].sort()).toEqual(
      ['member', 'member of another Loop', 'owner', 'owner of another Loop', 'signedOut', 'staff', 'stranger'].sort(),
    );
    expect(seen.refused).toBeGreaterThan(RUNS / 3);
    expect(seen.allowed).toBeGreaterThan(RUNS / 10);
  });
});

describe('photos', () => {
  it('are served by their unguessable path only while their update exists', async () => {
    const storage = t.app.ctx.storage;
    const loop = world.loops.A;
    const key = loop.photoKey;
    const detail = await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: world.cookie('ownerA') ?? '' } });
    const photo = detail.json<{ updates: { id: number; mediaUrls: string[] }[] }>().updates.find((u) => u.mediaUrls.length > 0);
    expect(photo?.mediaUrls[0]).toBe(`/media/${key}`);
    expect((await t.app.inject({ url: `/media/${key}` })).statusCode).toBe(200);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/updates/${photo?.id}`,
      headers: { cookie: world.cookie('ownerA') ?? '' },
    });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.app.inject({ url: `/media/${key}` });
    expect(gone.statusCode).toBe(404);
    expect(await storage.get(key)).toBeNull();
    await world.rebuild('A');
  });
});
