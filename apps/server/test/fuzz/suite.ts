import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRoute, FUZZ_RUNS, type RouteFuzz } from './harness';
import { createWorld, type World } from './world';

/**
 * One fuzz test per route, all on one app and one seeded database per file. Each asserts no 5xx,
 * a readable `{message}` on every error, and row counts that agree with every answer.
 */
export function fuzzSuite(title: string, routes: (world: World) => RouteFuzz[], env: Record<string, string> = {}): void {
  const world = {} as World;
  beforeAll(async () => {
    Object.assign(world, await createWorld(env));
  });
  afterAll(async () => {
    await world.close();
  });
  describe(`fuzz ${title}: ${FUZZ_RUNS} cases per route, every role`, () => {
    it.each(routes(world).map((spec) => [spec.route, spec] as const))('%s', async (_route, spec) => {
      const result = await fuzzRoute(world, spec);
      expect(result.cases).toBe(FUZZ_RUNS);
      expect(result.serverErrors).toBe(0);
    });
  });
}
