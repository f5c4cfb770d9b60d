import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { adminRoutes, authRoutes, loopRoutes, newsletterRoutes, publicRoutes } from './routes';
import { webhookRoutes } from './webhooks';
import type { World } from './world';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** "METHOD /path" of every route the app registered, read from Fastify's route tree. */
function registeredRoutes(tree: string): string[] {
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]*)\)/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    const path = (parents[depth - 1] ?? '') + segment;
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') routes.push(`${method} ${path.replace(/(.)\/$/, '$1')}`);
    }
  }
  return [...new Set(routes)];
}

it('fuzzes every API route, webhook, photo and public page the app has', () => {
  const world = {} as World;
  const fuzzed = new Set(
    [
      ...authRoutes(world),
      ...loopRoutes(world),
      ...adminRoutes(),
      ...newsletterRoutes(),
      ...publicRoutes(world),
      ...webhookRoutes(world),
    ].map((r) => r.route),
  );
  const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => /^\w+ \/(api|media|newsletters)\//.test(r));
  expect(registered).toEqual(
    expect.arrayContaining([
      'GET /api/loops/:id',
      'DELETE /api/loops/:id/members/:memberId',
      'POST /api/webhooks/twilio/status',
      'GET /media/:key',
      'GET /newsletters/:urlId',
    ]),
  );
  expect(registered.filter((r) => !fuzzed.has(r))).toEqual([]);
});
