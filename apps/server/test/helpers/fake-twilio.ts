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
  /** Every Messages.json list (GET), with its query: Loop asking whether a text in doubt went out. */
  lists: URLSearchParams[];
  /** The next `count` lists answer 500. */
  failLists: (count: number) => void;
  /** Adds a message Twilio took (as if an earlier create's answer was lost): what a list finds. */
  addMessage: (message: { to: string; from: string; body: string; createdAt?: Date }) => string;
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
  const lists: URLSearchParams[] = [];
  let listFailures = 0;
  /** The Message resources Twilio holds, oldest first, as the list API reads them. */
  const held: { sid: string; to: string; from: string; body: string; created: Date }[] = [];
  const hold = (message: { to: string; from: string; body: string; createdAt?: Date }) => {
    const sid = `SM${randomBytes(16).toString('hex')}`;
    held.push({ sid, to: message.to, from: message.from, body: message.body, created: message.createdAt ?? new Date() });
    return sid;
  };
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

    /**
     * Twilio's "Read multiple Message resources"
     * (https://www.twilio.com/docs/messaging/api/message-resource#read-multiple-message-resources):
     * GET Messages.json, filtered by To, From and DateSent (YYYY-MM-DD or a date and time; `DateSent<`
     * and `DateSent>` for on-or-before and on-or-after), newest first, PageSize (default 50) a page,
     * with the page's fields around `messages`. Dates are RFC 2822, as Twilio writes them.
     */
    function listMessages() {
      const query = new URL(request.url ?? '/', 'http://x').searchParams;
      lists.push(query);
      response.setHeader('content-type', 'application/json');
      if (request.headers.authorization !== expectedAuth) {
        response.statusCode = 401;
        return response.end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
      }
      if (listFailures > 0) {
        listFailures -= 1;
        response.statusCode = 500;
        return response.end(JSON.stringify({ code: 20500, message: 'Internal Server Error', status: 500 }));
      }
      const day = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      const on = query.get('DateSent');
      const before = query.get('DateSent<');
      const after = query.get('DateSent>');
      const pageSize = Math.min(1000, Number(query.get('PageSize') ?? 50) || 50);
      const matching = held
        .filter((m) => !query.get('To') || m.to === query.get('To'))
        .filter((m) => !query.get('From') || m.from === query.get('From'))
        .filter((m) => !on || m.created.toISOString().slice(0, 10) === on.slice(0, 10))
        .filter((m) => !after || m.created.getTime() >= Date.parse(day(after)))
        .filter((m) => !before || m.created.getTime() <= Date.parse(day(before)) + (/T/.test(before) ? 0 : 86_400_000 - 1))
        .reverse()
        .slice(0, pageSize);
      const uri = `/2010-04-01/Accounts/${accountSid}/Messages.json?PageSize=${pageSize}&Page=0`;
      response.statusCode = 200;
      response.end(
        JSON.stringify({
          first_page_uri: uri,
          end: Math.max(0, matching.length - 1),
          previous_page_uri: null,
          messages: matching.map((m) => ({
            account_sid: accountSid,
            api_version: '2010-04-01',
            body: m.body,
            date_created: m.created.toUTCString().replace('GMT', '+0000'),
            date_sent: m.created.toUTCString().replace('GMT', '+0000'),
            date_updated: m.created.toUTCString().replace('GMT', '+0000'),
            direction: 'outbound-api',
            error_code: null,
            error_message: null,
            from: m.from,
            messaging_service_sid: null,
            num_media: '0',
            num_segments: '1',
            price: null,
            price_unit: 'USD',
            sid: m.sid,
            status: 'sent',
            subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${m.sid}/Media.json` },
            to: m.to,
            uri: `/2010-04-01/Accounts/${accountSid}/Messages/${m.sid}.json`,
          })),
          uri,
          page_size: pageSize,
          start: 0,
          next_page_uri: null,
          page: 0,
        }),
      );
    }

    function answer() {
      if (request.method === 'GET' && path === `/2010-04-01/Accounts/${accountSid}/Messages.json`) return listMessages();
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
        const one = (value: string | string[] | undefined) => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));
        const sid = hold({ to: one(params.To), from: one(params.From ?? params.MessagingServiceSid), body: one(params.Body) });
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
    lists,
    addMessage: hold,
    failLists: (count) => {
      listFailures += count;
    },
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
