import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { SIGNED_IN_HINT_COOKIE } from '@loop/shared/auth';
import { SESSION_COOKIE } from '../services/sessions/session-policy';
import { clearSignedInHint, setSignedInHint } from './session';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Paths that answer JSON (or files) when nothing matches, never the app. */
const NOT_APP = ['/api', '/media', '/metrics'];

/**
 * A path the browser's router draws: anything but the API, media and metrics paths, and but a
 * missing file (a name with an extension: /favicon.ico, /assets/old-1.js), which gets a 404
 * rather than a page in place of a script.
 */
export function isAppPath(pathname: string): boolean {
  if (NOT_APP.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return false;
  return !/\.[A-Za-z0-9]+$/.test(pathname.slice(pathname.lastIndexOf('/') + 1));
}

/**
 * Serves the built web app, and index.html for every other GET that is not an API call, whatever
 * its Accept header (a load balancer's health check of `/` sends none), so the browser's router
 * can draw the page (including its not-found screen).
 */
export default fp(async (app, options: { dist?: string }) => {
  const dist = options.dist ?? WEB_DIST;
  const hasBuild = existsSync(path.join(dist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each script and stylesheet (apps/web/vite.config.ts):
      // browsers that accept them get those, at no CPU cost per request.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // Vite puts a content hash in every asset name: those can be cached for good.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && isAppPath(request.url.split('?')[0] ?? '');
    if (isPage && hasBuild) {
      // The web app's hint follows the session cookie the browser holds (a session from before the
      // hint existed, or a cookie the browser dropped), so a signed-out page asks nothing of /api/user.
      const hasSession = Boolean(request.cookies[SESSION_COOKIE]);
      if (hasSession && !request.cookies[SIGNED_IN_HINT_COOKIE]) setSignedInHint(reply);
      if (!hasSession && request.cookies[SIGNED_IN_HINT_COOKIE]) clearSignedInHint(reply);
      return reply.header('cache-control', 'no-cache').sendFile('index.html', dist);
    }
    if (isPage) {
      return reply.code(503).type('text/plain').send('The web app is not built yet. Run `npm start` (it builds it) or `npm run build`.');
    }
    // The path is echoed so a person sees what they asked for, but never at any length.
    const pathname = request.url.split('?')[0] ?? '';
    const shown = pathname.length > 100 ? `${pathname.slice(0, 100)}...` : pathname;
    return reply.code(404).send({ message: `Not found: ${request.method} ${shown}` });
  });
});
