import fp from 'fastify-plugin';
import { AppError } from '../errors';

/** How long a closing server waits for the requests under way before it closes the listener. */
const DRAIN_LIMIT_MS = 5_000;
/** Requests already sent on open connections but not yet read get this long to be read. */
const READ_PENDING_MS = 100;

/**
 * Graceful close (SIGTERM, see server.ts): the requests under way finish on an open database and
 * say `Connection: close`; a request that arrives meanwhile gets a 503 with a message. The
 * listener closes once nothing runs (at most 5 s); only then are new connections refused.
 */
export default fp(
  async (app) => {
    let closing = false;
    let running = 0;
    let drained: (() => void) | undefined;

    app.addHook('onRequest', (_request, reply, done) => {
      if (closing) {
        reply.header('connection', 'close');
        return done(new AppError('unavailable', 'Loop is restarting. Please try again in a moment.'));
      }
      running += 1;
      reply.raw.once('close', () => {
        running -= 1;
        if (running === 0) drained?.();
      });
      done();
    });

    // Node closes a connection after its running request, yet would announce keep-alive.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });

    app.addHook('preClose', async () => {
      closing = true;
      if (!app.server.listening) return;
      // Closing the listener drops every connection that looks idle, even one whose next request
      // has arrived but is not read yet: read those first (they get the 503).
      await new Promise((resolve) => setTimeout(resolve, READ_PENDING_MS));
      if (running === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_LIMIT_MS);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    });
  },
  { name: 'graceful-close' },
);
