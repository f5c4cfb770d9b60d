// `npm run bench -- fuzz`: the API fuzz suite (apps/server/test/fuzz) at volume. By default
// 100,000 cases in total, shared evenly among the routes; FUZZ_RUNS=n runs n per route instead
// (FUZZ_RUNS=100000 is a long soak). PGlite by default; TEST_DATABASE_URL=postgres://... for
// PostgreSQL. Prints cases run, 5xx answers and other problems found, and the time taken.
import { fuzzRoute, type FuzzResult, type RouteFuzz } from '../../apps/server/test/fuzz/harness';
import { adminRoutes, authRoutes, loopRoutes, newsletterRoutes, publicRoutes } from '../../apps/server/test/fuzz/routes';
import { TWILIO_ENV, webhookRoutes } from '../../apps/server/test/fuzz/webhooks';
import { createWorld, type World } from '../../apps/server/test/fuzz/world';

const TOTAL = Number(process.env.FUZZ_TOTAL ?? 100_000);
// Rate limits would turn most of a long run into 429s.
const UNLIMITED = { AUTH_RATE_LIMIT_PER_IP: '1000000000', AUTH_RATE_LIMIT_PER_ACCOUNT: '1000000000' };

const groups: { env: Record<string, string>; routes: (world: World) => RouteFuzz[] }[] = [
  { env: UNLIMITED, routes: (w) => [...authRoutes(w), ...loopRoutes(w), ...adminRoutes(), ...newsletterRoutes(), ...publicRoutes(w)] },
  { env: { ...UNLIMITED, ...TWILIO_ENV }, routes: webhookRoutes },
];

async function main(): Promise<void> {
  const routeCount = groups.reduce((n, g) => n + g.routes({} as World).length, 0);
  const perRoute = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : Math.ceil(TOTAL / routeCount);
  const database = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`API fuzz on ${database}: ${routeCount} routes, ${perRoute.toLocaleString('en-US')} cases each, every role\n`);
  const results: FuzzResult[] = [];
  const started = performance.now();
  for (const group of groups) {
    const world = await createWorld(group.env);
    try {
      for (const spec of group.routes(world)) {
        const result = await fuzzRoute(world, spec, { runs: perRoute, count: true });
        results.push(result);
        const rate = Math.round(result.cases / (result.ms / 1000));
        console.log(
          `  ${spec.route.padEnd(54)} ${String(result.cases).padStart(7)} cases  ${String(result.serverErrors).padStart(3)} 5xx  ${String(result.problems.length).padStart(3)} problems  ${(result.ms / 1000).toFixed(1).padStart(6)} s  ${rate} cases/s`,
        );
        for (const problem of result.problems.slice(0, 3)) console.log(`    ${problem.replaceAll('\n', '\n    ')}`);
      }
    } finally {
      await world.close();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cases = results.reduce((n, r) => n + r.cases, 0);
  const serverErrors = results.reduce((n, r) => n + r.serverErrors, 0);
  const problems = results.reduce((n, r) => n + r.problems.length, 0);
  console.log(
    `\n${cases.toLocaleString('en-US')} cases, ${serverErrors} 5xx, ${problems} problems (5xx, unreadable errors, rows that disagree with the answer), ${seconds.toFixed(0)} s (${Math.round(cases / seconds)} cases/s)`,
  );
  process.exitCode = problems > 0 ? 1 : 0;
}

await main();
