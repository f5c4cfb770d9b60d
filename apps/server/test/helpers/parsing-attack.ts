import { newAccount } from './app';
import { simulatorForm } from './simulator-form';

/**
 * The parsing attacks on a running server (decision 0032), for test/security/parsing.test.ts and
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
  /** Stops every connection after its request in flight; answers how many answers of each status came. */
  stop: () => Promise<Record<string, number>>;
}

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
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return statuses;
    },
  };
}

/** `samples` GETs of /api/health one after another, `gapMs` apart: each one's milliseconds. */
export async function healthLatencies(baseUrl: string, samples: number, gapMs = 50): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/health`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
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
    nestedSignIn: { path: '/api/login', headers: json, body: nestedJson(1024 * 1024) } satisfies AttackRequest,
    nestedSimulator: {
      path: messages,
      headers: { ...json, cookie: simulator.cookie },
      body: nestedJson(21 * 1024 * 1024),
    } satisfies AttackRequest,
    largeUpload: { path: messages, headers: { ...form.headers, cookie: simulator.cookie }, body: form.payload } satisfies AttackRequest,
  };
}
