import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { percentEncode, role as anyRole, type RawBody, type Segment } from './arbitraries';
import { TABLES, type Counts, type Role, type Table, type World } from './world';

/** Cases per route: 1,000 in CI; FUZZ_RUNS=100000 (or more) on demand. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);

export type Delta = Counts;

export interface RouteFuzz {
  /** "POST /api/loops/:id/members": the path's `:name` parts come from `params`. */
  route: string;
  params?: Record<string, fc.Arbitrary<Segment>>;
  query?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<RawBody>;
  headers?: fc.Arbitrary<Record<string, string>>;
  roles?: fc.Arbitrary<Role>;
  /** Each case gets a session of its own (routes that end or rotate the one they are sent with). */
  freshSession?: boolean;
  /** Errors are HTML pages (the public newsletter page), not JSON. */
  htmlErrors?: boolean;
  /** A 2xx may remove seeded rows: repair the world after it. */
  destructive?: boolean;
  /** Runs after a 2xx, outside the counted case (new updates for the next sneak peek). */
  afterSuccess?: (world: World) => Promise<void>;
  /** Builds the request itself (webhooks sign their bodies); default: from path, query, body. */
  prepare?: (input: PreparedRequest, world: World) => PreparedRequest;
  /** Any other promise about the answer to this request; returns a problem, or null. */
  check?: (request: PreparedRequest, res: LightMyRequestResponse) => string | null;
  /** For a 2xx: what the row counts may have done, judged against the answer. Returns a problem, or null. */
  success: (delta: Delta, res: LightMyRequestResponse) => string | null;
}

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface FuzzResult {
  route: string;
  cases: number;
  statuses: Record<number, number>;
  serverErrors: number;
  problems: string[];
  ms: number;
}

/** Rows may change only as listed: a number is the exact change, a list the changes allowed. */
export function rows(expected: Partial<Record<Table, number | number[]>> = {}) {
  return (delta: Delta): string | null => {
    for (const table of TABLES) {
      const want = expected[table] ?? 0;
      const ok = Array.isArray(want) ? want.includes(delta[table]) : delta[table] === want;
      if (!ok) return `${table} changed by ${delta[table]}, expected ${JSON.stringify(want)}`;
    }
    return null;
  };
}

const STACK = /\n\s+at |node_modules|\.ts:\d+|TypeError|ReferenceError|SyntaxError|Cannot read prop|undefined is not|\[object Object\]/;

/** An answer's problem, or null: 5xx, an error a person cannot read, or rows that disagree. */
function judge(spec: RouteFuzz, res: LightMyRequestResponse, delta: Delta): string | null {
  // A path that normalizes to one of the app's pages ("/media/.." is "/") gets the web app; the
  // tests run without a build, where that page says so with a 503 (plugins/web-app.ts).
  if (res.statusCode === 503 && res.body.startsWith('The web app is not built yet')) return null;
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.statusCode >= 300 && res.statusCode < 400) return `unexpected redirect ${res.statusCode}`;
  if (res.statusCode >= 400) {
    const changed = TABLES.filter((t) => delta[t] !== 0);
    if (changed.length) return `a ${res.statusCode} changed rows: ${changed.map((t) => `${t} ${delta[t]}`).join(', ')}`;
    const type = String(res.headers['content-type'] ?? '');
    if (spec.htmlErrors && type.startsWith('text/html')) return res.body.trim() ? null : 'empty HTML error page';
    if (!type.startsWith('application/json')) return `error ${res.statusCode} is ${type || 'untyped'}, not JSON`;
    let message: unknown;
    try {
      message = res.json<{ message?: unknown }>().message;
    } catch {
      return `error ${res.statusCode} body is not JSON`;
    }
    if (typeof message !== 'string' || message.trim() === '') return `error ${res.statusCode} has no message`;
    if (message.length > 500) return `error message is ${message.length} characters long`;
    if (STACK.test(message)) return `error message leaks internals: ${message}`;
    return null;
  }
  return spec.success(delta, res);
}

function pathOf(spec: RouteFuzz, segments: Record<string, Segment>, world: World): { method: string; url: string } {
  const [method = 'GET', template = '/'] = spec.route.split(' ');
  const url = template.replace(/:(\w+)/g, (_, name: string) => {
    const segment = segments[name];
    if (!segment) throw new Error(`no arbitrary for :${name} in ${spec.route}`);
    if ('literal' in segment) return segment.literal;
    const value = 'ref' in segment ? world.refs[segment.ref] : segment.raw;
    return percentEncode(String(value));
  });
  return { method, url };
}

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text);

/**
 * Runs `runs` random requests against one route and checks each answer (see judge). In CI a problem
 * fails the test (fast-check shrinks it and prints the seed); with `count`, problems are collected.
 */
export async function fuzzRoute(
  world: World,
  spec: RouteFuzz,
  options: { runs?: number; count?: boolean; seed?: number } = {},
): Promise<FuzzResult> {
  const result: FuzzResult = { route: spec.route, cases: 0, statuses: {}, serverErrors: 0, problems: [], ms: 0 };
  const started = performance.now();
  const input = fc.record({
    role: spec.roles ?? anyRole,
    params: fc.record(spec.params ?? {}),
    query: spec.query ?? fc.constant(''),
    body: spec.body ?? fc.constant<RawBody>({}),
    headers: spec.headers ?? fc.constant({}),
  });
  let last: Counts | undefined;
  const property = fc.asyncProperty(input, async (c) => {
    const { method, url } = pathOf(spec, c.params, world);
    // One count per case: the counts after a case are the counts before the next, unless the
    // harness itself wrote (a fresh session below, a repair).
    const before = last ?? (await world.counts());
    const cookie = await world.cookie(c.role, spec.freshSession);
    if (spec.freshSession && cookie && c.role !== 'forged') before.sessions += 1;
    let request: PreparedRequest = {
      method,
      url: url + c.query,
      headers: {
        ...c.headers,
        ...(cookie ? { cookie } : {}),
        ...(c.body.contentType !== undefined ? { 'content-type': c.body.contentType } : {}),
      },
      ...(c.body.payload !== undefined ? { payload: c.body.payload } : {}),
    };
    if (spec.prepare) request = spec.prepare(request, world);
    const res = await world.app.inject(request as InjectOptions);
    const after = await world.counts();
    last = after;
    const delta = Object.fromEntries(TABLES.map((t) => [t, after[t] - before[t]])) as Delta;
    result.cases += 1;
    result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500 && judge(spec, res, delta) !== null) result.serverErrors += 1;
    if (res.statusCode < 300 && (spec.destructive || spec.afterSuccess)) {
      if (spec.destructive) await world.repair();
      await spec.afterSuccess?.(world);
      last = undefined;
    }
    const problem = judge(spec, res, delta) ?? spec.check?.(request, res) ?? null;
    if (!problem) return true;
    const report = `${problem}\n  ${c.role} ${request.method} ${short(request.url)} [${request.headers['content-type'] ?? 'no content-type'}] ${short(request.payload ?? '')}\n  -> ${res.statusCode} ${short(res.body)}`;
    if (options.count) {
      result.problems.push(report);
      return true;
    }
    throw new Error(report);
  });
  await fc.assert(property, {
    numRuns: options.runs ?? FUZZ_RUNS,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    endOnFailure: process.env.FUZZ_SHRINK !== '1',
  });
  // The trigger-kept counts the cases were judged by must be the tables' real counts.
  const [kept, exact] = [await world.counts(), await world.exactCounts()];
  const drift = TABLES.filter((t) => kept[t] !== exact[t]);
  if (drift.length) {
    const problem = `row counts drifted from the tables: ${drift.map((t) => `${t} ${kept[t]} vs ${exact[t]}`).join(', ')}`;
    if (!options.count) throw new Error(problem);
    result.problems.push(problem);
  }
  result.ms = performance.now() - started;
  if (process.env.FUZZ_VERBOSE)
    console.log(`${spec.route}: ${result.cases} cases in ${Math.round(result.ms)} ms, statuses ${JSON.stringify(result.statuses)}`);
  return result;
}
