import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { rawConnection, requestText } from './helpers/raw-http';

/**
 * docs/reliability.md, "Slow clients": no client holds a connection for long by sending slowly
 * or by keeping it open idle. Node's own timeouts, checked on the real listening server.
 */
let t: TestContext;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

describe('HTTP timeouts', () => {
  it('are set: headers 10 s, whole request 30 s, idle keep-alive 5 s', () => {
    expect(t.app.server.headersTimeout).toBe(10_000);
    expect(t.app.server.requestTimeout).toBe(30_000);
    expect(t.app.server.keepAliveTimeout).toBe(5_000);
  });

  it('close a connection that never finishes its headers, and one left idle', { timeout: 30_000 }, async () => {
    const slow = await rawConnection(port);
    slow.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n'); // and nothing more
    const idle = await rawConnection(port);
    idle.write(requestText({ method: 'GET', path: '/api/health' }));
    expect((await idle.response()).status).toBe(200);

    const started = performance.now();
    const [slowAnswer, idleClosed] = await Promise.all([slow.response(20_000), idle.closed().then(() => performance.now() - started)]);
    expect(slowAnswer.status).toBe(408);
    // The headers timeout is checked every 2 s; the keep-alive one exactly.
    expect(performance.now() - started).toBeLessThan(14_000);
    expect(idleClosed).toBeGreaterThan(4_000);
    expect(idleClosed).toBeLessThan(7_000);
  });
});
