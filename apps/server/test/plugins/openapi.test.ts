import { Validator } from '@seriousme/openapi-schema-validator';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/plugins/web-app';
import { createTestApp, type TestContext } from '../helpers/app';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema, walked in the test
  responses?: Record<string, { content: Record<string, { schema: any }> }>;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

let t: TestContext;
let doc: Document;
/**
 * "METHOD /path" of every route as Fastify registered it (HEAD, which it derives from each GET, left
 * out; so are the built web app's files, one route each when apps/web/dist exists: not API).
 */
const registered = new Set<string>();
const isWebAppFile = (url: string) => url !== '/' && !url.includes(':') && !url.includes('*') && existsSync(path.join(WEB_DIST, url));
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      onRoute: (route) => {
        if (isWebAppFile(route.url)) return;
        for (const method of [route.method].flat()) if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
      },
    },
  );
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(() => t.close());

/** Fastify's "/api/loops/:id" is OpenAPI's "/api/loops/{id}", and its wildcard "/files/*" is "/files/{*}". */
const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
const operation = (method: string, path: string) => doc.paths[openapiPath(path)]?.[method.toLowerCase()];

describe('GET /api/openapi.json (decision 0018)', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does judge: a path that is not a path is refused.
    const broken = await new Validator().validate({ ...doc, paths: { ...doc.paths, 'api/no-slash': {} } });
    expect(broken.valid).toBe(false);
  });

  it('describes every route the app registered, with its method', () => {
    const routes = [...registered];
    // Every kind is seen: the API, the webhooks, photos, the public page and its files.
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/openapi.json',
        'PUT /api/loops/:id',
        'POST /api/webhooks/twilio/messages',
        'GET /media/:key/:width',
        'GET /newsletters/:urlId',
        'GET /newsletter-assets/*',
      ]),
    );
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.filter((route) => {
      const [method = '', path = ''] = route.split(' ');
      return operation(method, path) === undefined;
    });
    expect(missing).toEqual([]);
  });

  it('describes each route from the zod schemas that validate it', () => {
    // Path parameters, required, from the params schema.
    const member = operation('PUT', '/api/loops/:id/members/:memberId');
    expect(member?.parameters?.filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual([
      ['id', true],
      ['memberId', true],
    ]);
    // A JSON body, its fields and which are required, from the body schema.
    const body = operation('POST', '/api/loops')?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(expect.arrayContaining(['name', 'vibe', 'timeZone']));
    expect(body?.required).toContain('name');
    // The query of the admin list.
    expect(
      operation('GET', '/api/admin/loops')
        ?.parameters?.filter((p) => p.in === 'query')
        .map((p) => p.name),
    ).toEqual(expect.arrayContaining(['page', 'pageSize', 'cursor']));
    // My Loops' invitations (decision 0035): the list and each answer, from their response schemas.
    const invitations = operation('GET', '/api/invitations')?.responses?.['200']?.content['application/json']?.schema;
    expect(invitations?.items?.required).toEqual(['id', 'loop', 'invitedBy', 'invitedAt', 'expiresAt']);
    const accepted = operation('POST', '/api/invitations/:membershipId/accept');
    expect(accepted?.parameters?.filter((p) => p.in === 'path').map((p) => [p.name, p.required])).toEqual([['membershipId', true]]);
    expect(accepted?.responses?.['200']?.content['application/json']?.schema?.properties?.status?.enum).toEqual(['active', 'declined']);
    // Twilio's webhooks take a form.
    expect(Object.keys(operation('POST', '/api/webhooks/twilio/status')?.requestBody?.content ?? {})).toEqual([
      'application/x-www-form-urlencoded',
    ]);
  });

  it('describes the Loop detail’s answer: each update with its photos and its voice memos and videos (decision 0023)', () => {
    const detail = operation('GET', '/api/loops/:id')?.responses?.['200']?.content['application/json']?.schema;
    const update = detail?.properties?.updates?.items;
    expect(Object.keys(update?.properties ?? {})).toEqual(['id', 'userId', 'content', 'createdAt', 'mediaUrls', 'photos', 'clips', 'user']);
    const clip = update?.properties?.clips?.items;
    expect(clip?.required).toEqual(['url', 'kind', 'durationMs', 'width', 'height', 'poster', 'transcript']);
    expect(clip?.properties?.kind?.enum).toEqual(['audio', 'video']);
    expect(clip?.properties?.transcript).toBeDefined();
  });
});

describe('route input, checked by Fastify with the shared schemas (decision 0018)', () => {
  it('answers a bad input with the AppError 400 of parseInput, word for word', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The request body must be a JSON object.',
      errors: [{ path: '', message: 'The request body must be a JSON object.' }],
    });
    const admin = await t.app.inject({ method: 'GET', url: '/api/admin/loops?page=0' });
    // Staff first (onRequest), then the query.
    expect(admin.statusCode).toBe(401);
  });

  it('asks who you are before it looks at what you sent', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/loops/abc', payload: { name: '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please log in to continue.' });
  });
});
