import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { newAccount } from './app';
import { simulatorForm } from './simulator-form';

/**
 * The parsing attacks on a running server (decision 0032), for test/security/parsing-processes.test.ts and
 * `npm run bench -- parsing-attack`: JSON nested a mebibyte deep, and 21 MB sent to the Phone
 * Simulator's message route, as nested JSON and as a multipart "video".
 */

/** `[[[[...]]]]`, `bytes` long. */
export function nestedJson(bytes: number): string {
  return '['.repeat(bytes / 2) + ']'.repeat(bytes / 2);
}

export interface AttackRequest {
  path: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface RunningAttack {
  /** How many answers of each status came so far ("reset": the socket closed instead). */
  statuses: Record<string, number>;
  /** Stops every connection after its request in flight; answers the statuses. */
  stop: () => Promise<Record<string, number>>;
}

/**
 * The attacks in a process of their own (`parsing-attack-process.ts`), so that sending them takes
 * nothing from the event loop that measures /api/health. `stop` answers each attack's statuses.
 */
export function startAttackProcess(
  baseUrl: string,
  attacks: { name: AttackName; connections: number }[],
  simulator: { cookie: string; phoneNumber: string },
): { ready: Promise<void>; stop: () => Promise<Record<string, number>[]> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./parsing-attack-process.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ATTACK: JSON.stringify({ baseUrl, attacks, simulator }) },
  });
  let output = '';
  let started: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (started = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('started\n')) started();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ready: Promise.race([ready, exited.then(() => Promise.reject(new Error('the attack process ended at start')))]),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(output.trim().split('\n').at(-1) ?? '[]') as Record<string, number>[];
    },
  };
}

export type AttackName = keyof Awaited<ReturnType<typeof parsingAttacks>>;

/** `connections` loops, each sending `request` again as soon as the last one was answered. */
export function startAttack(baseUrl: string, request: AttackRequest, connections: number): RunningAttack {
  let stopped = false;
  const statuses: Record<string, number> = {};
  const loop = async () => {
    while (!stopped) {
      try {
        const res = await fetch(baseUrl + request.path, { method: 'POST', headers: request.headers, body: request.body });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        // The server may close a socket it refused the body of.
        statuses.reset = (statuses.reset ?? 0) + 1;
      }
    }
  };
  const loops = Array.from({ length: connections }, loop);
  return {
    statuses,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return statuses;
    },
  };
}

/** How long one GET /api/health is waited for. */
const HEALTH_PATIENCE_MS = 5_000;

/** `samples` GETs of /api/health one after another, `gapMs` apart: each one's milliseconds. */
export async function healthLatencies(baseUrl: string, samples: number, gapMs = 50): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(HEALTH_PATIENCE_MS) });
      await res.arrayBuffer();
      times.push(performance.now() - started);
    } catch {
      // A server frozen by parsing: counted as the whole wait.
      times.push(HEALTH_PATIENCE_MS);
    }
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return times;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Signs up on a server in simulator mode (the code comes back in the answer there) and answers
 * the session cookie and the phone: the Phone Simulator's routes need someone signed in.
 */
export async function signUpOnServer(baseUrl: string): Promise<{ cookie: string; phoneNumber: string }> {
  const account = newAccount();
  const jar = new Map<string, string>();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  const started = await post('/api/register', account);
  const { simulatedText, phoneNumber } = (await started.json()) as { simulatedText?: string; phoneNumber: string };
  const code = /\b\d{6}\b/.exec(simulatedText ?? '')?.[0];
  if (!code) throw new Error(`sign-up gave no code: ${started.status}`);
  const verified = await post('/api/register/verify', { phoneNumber, code });
  if (verified.status !== 201) throw new Error(`sign-up failed: ${verified.status} ${await verified.text()}`);
  // The simulator plays the phones of one's own Loops.
  const loop = await post('/api/loops', { name: 'Attackers', vibe: ['family'], timeZone: 'UTC' });
  if (loop.status !== 201) throw new Error(`creating a Loop failed: ${loop.status} ${await loop.text()}`);
  return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), phoneNumber };
}

/** The attacks, ready to send: a mebibyte of nesting to sign-in, and 21 MB to the simulator. */
export async function parsingAttacks(simulator: { cookie: string; phoneNumber: string }) {
  const json = { 'content-type': 'application/json' };
  const messages = `/api/simulator/phones/${encodeURIComponent(simulator.phoneNumber)}/messages`;
  // A "video" of 21 MB: what the old route took as 28 MB of base64 JSON.
  const video = Buffer.concat([Buffer.from('\0\0\0\x18ftypmp42'), Buffer.alloc(21 * 1024 * 1024)]);
  const form = await simulatorForm({ body: 'big' }, [{ contentType: 'video/mp4', bytes: video }]);
  return {
    nestedSignIn: { path: '/api/login', headers: json, body: Buffer.from(nestedJson(1024 * 1024)) } satisfies AttackRequest,
    nestedSimulator: {
      path: messages,
      headers: { ...json, cookie: simulator.cookie },
      body: Buffer.from(nestedJson(21 * 1024 * 1024)),
    } satisfies AttackRequest,
    largeUpload: { path: messages, headers: { ...form.headers, cookie: simulator.cookie }, body: form.payload } satisfies AttackRequest,
  };
}
