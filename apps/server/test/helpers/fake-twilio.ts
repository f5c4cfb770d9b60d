import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  params: Record<string, string | string[]>;
  authorization: string | undefined;
  /** When the create came in, on the test process's `performance.now()` clock. */
  at: number;
}

interface MediaResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The answer waits for this (a slow download). */
  held?: Promise<void>;
}

export interface FakeTwilio {
  /** http://127.0.0.1:{port}: what TWILIO_API_BASE_URL is set to. */
  url: string;
  accountSid: string;
  authToken: string;
  /** Every Messages.json create that was answered 201, in order. */
  sent: SentMessage[];
  /** Every Messages.json create, whatever the answer. */
  attempts: SentMessage[];
  mediaRequests: { path: string; authorization: string | undefined }[];
  /** The next creates answer these statuses (with a Twilio error body) before answering 201 again. */
  failNext: (...failures: { status: number; code?: number; message?: string }[]) => void;
  /** Serves `body` at `path` (Basic auth required), like api.twilio.com's media URLs. */
  addMedia: (path: string, body: Buffer, contentType: string) => string;
  /**
   * Runs after a create is accepted and before it is answered: Twilio may post a status callback
   * for a MessageSid before its API answer reaches us.
   */
  beforeAnswer: ((sid: string, params: Record<string, string | string[]>) => Promise<void>) | undefined;
  /** As addMedia, but every request for it waits until `release` is called: a download that takes its time. */
  addHeldMedia: (path: string, body: Buffer, contentType: string) => { url: string; release: () => void };
  /** Answers `path` with a redirect to `location`. */
  addRedirect: (path: string, location: string) => string;
  /**
   * From now on, creates wait `ms` before Twilio looks at them (0: no more waiting): a Twilio slow
   * to answer. A create whose connection the client closes meanwhile is never taken (not in `attempts`).
   */
  stall: (ms: number) => void;
  /** Creates waiting in a stall right now. */
  stalled: () => number;
  close: () => Promise<void>;
}

/**
 * A fake Twilio REST API and media host on 127.0.0.1, over real HTTP, so the real `twilio` SDK
 * (through TWILIO_API_BASE_URL) and the media fetcher are what the tests exercise.
 * `responseDelayMs` keeps each accepted create's answer back that long (sends stay in flight).
 */
export async function startFakeTwilio(options: { responseDelayMs?: number } = {}): Promise<FakeTwilio> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const sent: SentMessage[] = [];
  const attempts: SentMessage[] = [];
  const mediaRequests: FakeTwilio['mediaRequests'] = [];
  const failures: { status: number; code?: number; message?: string }[] = [];
  const media = new Map<string, MediaResponse>();

  let stallMs = 0;
  let stalled = 0;

  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const isCreate = request.method === 'POST' && path === `/2010-04-01/Accounts/${accountSid}/Messages.json`;
      if (!isCreate || stallMs === 0) return answer();
      stalled += 1;
      const timer = setTimeout(() => {
        stalled -= 1;
        answer();
      }, stallMs);
      response.on('close', () => {
        if (response.writableEnded) return;
        clearTimeout(timer);
        stalled -= 1;
      });
    });

    function answer() {
      if (request.method === 'POST' && path === `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
        const params: Record<string, string | string[]> = {};
        for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
          const existing = params[key];
          params[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
        }
        const record = { params, authorization: request.headers.authorization, at: performance.now() };
        attempts.push(record);
        const failure = failures.shift();
        response.setHeader('content-type', 'application/json');
        if (request.headers.authorization !== expectedAuth) {
          response.statusCode = 401;
          return response.end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
        }
        if (failure) {
          response.statusCode = failure.status;
          return response.end(
            JSON.stringify({
              code: failure.code ?? failure.status * 100,
              message: failure.message ?? `fake failure ${failure.status}`,
              status: failure.status,
            }),
          );
        }
        sent.push(record);
        response.statusCode = 201;
        const sid = `SM${randomBytes(16).toString('hex')}`;
        const answer = JSON.stringify({
          sid,
          account_sid: accountSid,
          status: 'queued',
          to: params.To,
          from: params.From ?? null,
          body: params.Body ?? '',
        });
        const hook = fake.beforeAnswer;
        if (hook)
          return void hook(sid, params).then(
            () => response.end(answer),
            () => response.end(answer),
          );
        // A slow Twilio: the text is accepted at once, the answer comes later.
        if (options.responseDelayMs) return void setTimeout(() => response.end(answer), options.responseDelayMs);
        return response.end(answer);
      }
      const found = media.get(path);
      if (request.method === 'GET' && found) {
        mediaRequests.push({ path, authorization: request.headers.authorization });
        if (found.status === 200 && request.headers.authorization !== expectedAuth) {
          response.statusCode = 401;
          return response.end();
        }
        const send = () => {
          response.writeHead(found.status, found.headers);
          response.end(found.body);
        };
        return found.held ? void found.held.then(send) : send();
      }
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeTwilio = {
    beforeAnswer: undefined,
    url,
    accountSid,
    authToken,
    sent,
    attempts,
    mediaRequests,
    failNext: (...list) => failures.push(...list),
    addMedia: (path, body, contentType) => {
      media.set(path, { status: 200, headers: { 'content-type': contentType, 'content-length': String(body.length) }, body });
      return `${url}${path}`;
    },
    addHeldMedia: (path, body, contentType) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      media.set(path, { status: 200, headers: { 'content-type': contentType, 'content-length': String(body.length) }, body, held });
      return { url: `${url}${path}`, release };
    },
    stall: (ms) => {
      stallMs = ms;
    },
    stalled: () => stalled,
    addRedirect: (path, location) => {
      media.set(path, { status: 302, headers: { location }, body: Buffer.alloc(0) });
      return `${url}${path}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}

/** The settings that point the app at a fake Twilio. */
export function twilioEnv(fake: FakeTwilio, extra: Record<string, string> = {}): Record<string, string> {
  return {
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: '+15005550006',
    TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886',
    TWILIO_API_BASE_URL: fake.url,
    PUBLIC_URL: 'https://loop.example.com',
    SEND_RATE_PER_SECOND: '0',
    SEND_RETRY_BASE_SECONDS: '30',
    ...extra,
  };
}
