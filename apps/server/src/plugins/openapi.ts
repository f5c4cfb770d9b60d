import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../services/sessions/session-policy';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The API described (decision 0018): @fastify/swagger sees every route as it is registered (so it
 * is registered before any), and fastify-type-provider-zod turns each route's zod schemas (params,
 * query, body: the ones that validate it) into the document's JSON Schema 2020-12. Routes without
 * input (the photos, the public newsletter page, the web app's files) are listed with their method
 * and path; HEAD, which Fastify derives from each GET, is left out. GET /api/openapi.json serves it.
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loop',
        version: '1.0.0',
        description:
          'A family shares updates by text message and Loop turns them into a newsletter. Every error is JSON ' +
          '`{ message, errors? }`: `message` is for a person to read; a 400 lists each bad field in `errors` as ' +
          '`{ path, message }`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by POST /api/login and /api/register/verify.' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
});
