import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { createTestApp, testConfig, type TestApp, type TestContext } from '../helpers/app';

// The built web app as the server sends it: the .br and .gz the build writes beside each script
// (apps/web/vite.config.ts) go to browsers that accept them; others get the file itself.
const SCRIPT = `console.log(${JSON.stringify('Loop '.repeat(2000))});`;

let t: TestContext;
let app: TestApp;
let webDist: string;
beforeAll(async () => {
  t = await createTestApp();
  webDist = mkdtempSync(path.join(tmpdir(), 'loop-web-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head><body></body></html>',
  );
  const script = path.join(webDist, 'assets', 'app-1.js');
  writeFileSync(script, SCRIPT);
  writeFileSync(`${script}.br`, brotliCompressSync(SCRIPT));
  writeFileSync(`${script}.gz`, gzipSync(SCRIPT));
  app = await buildApp(testConfig(t.dataDir), { database: t.testDb.database, webDist });
});
afterAll(async () => {
  await app.close();
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const script = (acceptEncoding?: string) =>
  app.inject({ url: '/assets/app-1.js', headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('the web app’s scripts', () => {
  it('go brotli-compressed to a browser that accepts br, with the script’s type and long caching', async () => {
    const res = await script('gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('go gzipped to a client that accepts only gzip', async () => {
    const res = await script('gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('go as they are to a client that accepts no compression', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const res = await script(acceptEncoding);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
    }
  });
});

describe('the app’s pages', () => {
  it('are served whatever the Accept header, so a load balancer’s health check of / passes', async () => {
    for (const url of ['/', '/loops/12', '/guide', '/join/AbC-123', '/admin/loops?page=2']) {
      for (const accept of [undefined, '*/*', 'application/json', 'text/html,application/xhtml+xml']) {
        const res = await app.inject({ url, headers: accept === undefined ? {} : { accept } });
        expect(res.statusCode, `${url} with Accept ${accept}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('<!doctype html>');
      }
    }
    const head = await app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
  });

  it('are not what API paths, media and missing files answer: those stay JSON', async () => {
    for (const url of ['/api/nope', '/api', '/media/missing-key', '/assets/old-1.js', '/favicon.ico']) {
      for (const accept of [undefined, 'text/html']) {
        const res = await app.inject({ url, headers: accept === undefined ? {} : { accept } });
        expect(res.statusCode, `${url} with Accept ${accept}`).toBeGreaterThanOrEqual(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(typeof res.json<{ message: unknown }>().message).toBe('string');
      }
    }
    const post = await app.inject({ method: 'POST', url: '/loops/12', headers: { accept: 'text/html' } });
    expect(post.statusCode).toBe(404);
  });
});
