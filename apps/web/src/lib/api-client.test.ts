import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, type ApiClient } from './api-client';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

// A real HTTP server on 127.0.0.1: the client talks to it with the real fetch.
let server: Server;
let client: ApiClient;
let baseUrl: string;
let seen: Seen[] = [];

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    seen.push({ method: request.method ?? '', url: request.url ?? '', contentType: request.headers['content-type'], body });
    const send = (status: number, text: string, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type });
      response.end(text);
    };
    switch (request.url) {
      case '/ok':
        return send(200, JSON.stringify({ id: 1, echo: body ? JSON.parse(body) : null }));
      case '/paged?page=1':
        response.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '3', 'x-next-page': '2' });
        return response.end(JSON.stringify([1, 2]));
      case '/empty':
        response.writeHead(204);
        return response.end();
      case '/conflict':
        return send(409, JSON.stringify({ message: 'An account with this email already exists. Log in instead.' }));
      case '/plain':
        return send(400, 'Plain words', 'text/plain');
      case '/json-without-message':
        return send(422, JSON.stringify({ error: 'nope' }));
      case '/bare':
        response.writeHead(404, 'Not Found');
        return response.end();
      case '/crash':
        return send(500, JSON.stringify({ message: 'internal details' }));
      case '/unavailable':
        return send(503, '<html>proxy page</html>', 'text/html');
      case '/not-json':
        return send(200, '<!doctype html>', 'text/html');
      default:
        return send(404, JSON.stringify({ message: `Not found: ${request.url}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createApiClient(baseUrl);
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  seen = [];
});

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('api client', () => {
  it('reads JSON answers and sends no content type without a body', async () => {
    await expect(client.get('/ok')).resolves.toEqual({ id: 1, echo: null });
    expect(seen).toEqual([{ method: 'GET', url: '/ok', contentType: undefined, body: '' }]);
  });

  it('sends a JSON body with its content type', async () => {
    await expect(client.put('/ok', { messagingPreference: 'whatsapp' })).resolves.toEqual({
      id: 1,
      echo: { messagingPreference: 'whatsapp' },
    });
    expect(seen[0]).toMatchObject({ method: 'PUT', contentType: 'application/json', body: '{"messagingPreference":"whatsapp"}' });
  });

  it('sends a POST without a body with no content type', async () => {
    await client.post('/ok');
    expect(seen[0]).toMatchObject({ method: 'POST', contentType: undefined, body: '' });
  });

  it('answers the headers too when asked (paged lists)', async () => {
    const { data, headers } = await client.getWithHeaders<number[]>('/paged?page=1');
    expect(data).toEqual([1, 2]);
    expect(headers.get('X-Total-Count')).toBe('3');
    expect(headers.get('X-Next-Page')).toBe('2');
    await expect(caught(client.getWithHeaders('/conflict'))).resolves.toMatchObject({ status: 409 });
  });

  it('answers undefined for an empty body', async () => {
    await expect(client.delete('/empty')).resolves.toBeUndefined();
  });

  it('uses the message of a JSON error body', async () => {
    const error = await caught(client.post('/conflict', { email: 'a@b.co' }));
    expect(error.status).toBe(409);
    expect(error.message).toBe('An account with this email already exists. Log in instead.');
  });

  it('uses the raw text of any other 4xx body', async () => {
    expect((await caught(client.get('/plain'))).message).toBe('Plain words');
    expect((await caught(client.get('/json-without-message'))).message).toBe('{"error":"nope"}');
    expect((await caught(client.get('/bare'))).message).toBe('404 Not Found');
  });

  it('uses status and status text for 5xx, and does not retry', async () => {
    const error = await caught(client.get('/crash'));
    expect(error.status).toBe(500);
    expect(error.message).toBe('500 Internal Server Error');
    expect((await caught(client.get('/unavailable'))).message).toBe('503 Service Unavailable');
    expect(seen).toHaveLength(2);
  });

  it('refuses an OK answer that is not JSON', async () => {
    expect((await caught(client.get('/not-json'))).status).toBe(200);
  });

  it('throws the network error text when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await caught(createApiClient(`http://127.0.0.1:${port}`).get('/ok'));
    expect(error.status).toBe(0);
    expect(error.message).toBe('fetch failed');
  });
});

describe('auth calls', () => {
  it('answer ok on success', async () => {
    await expect(client.auth('/ok', { email: 'a@b.co', password: 'x' })).resolves.toEqual({ ok: true });
    await expect(client.auth('/ok')).resolves.toEqual({ ok: true });
    expect(seen[1]).toMatchObject({ method: 'POST', contentType: undefined });
  });

  it('answer ok false with the message on 4xx, 5xx and network failures', async () => {
    await expect(client.auth('/conflict', {})).resolves.toEqual({
      ok: false,
      message: 'An account with this email already exists. Log in instead.',
    });
    await expect(client.auth('/crash')).resolves.toEqual({ ok: false, message: '500 Internal Server Error' });
    await expect(createApiClient('http://127.0.0.1:1').auth('/ok')).resolves.toEqual({ ok: false, message: 'fetch failed' });
  });
});

describe('credentials', () => {
  it('sends the session cookie by default, and none when asked (the join call)', async () => {
    const seenCredentials: (RequestCredentials | undefined)[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      seenCredentials.push(init?.credentials);
      return realFetch(input, init);
    };
    try {
      await client.get('/ok');
      await client.post('/ok', { a: 1 }, { credentials: 'omit' });
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(seenCredentials).toEqual(['include', 'omit']);
  });
});
