import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { renderEmailLinkPage } from '../../publishing/email-pages';
import { confirmEmailAddress, confirmLinkIsValid } from '../../services/email/confirm-address';
import { unsubscribeByLink, unsubscribeLinkIsValid } from '../../services/email/unsubscribe';

/** Tokens are randomToken() or an HMAC, base64url: anything else is unknown without asking the database. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const WINDOW_MS = 15 * 60_000;
/**
 * Link requests per client address in WINDOW_MS. Generous: a mail provider's one-click POSTs for
 * many of its users come from a few addresses (RFC 8058 section 3.1), and a 256-bit token is not
 * guessed by asking; the limit keeps a flood off the database.
 */
const LINKS_PER_IP = 600;

type Params = { Params: { token: string } };

const NOT_VALID = renderEmailLinkPage({
  title: 'This link does not work',
  paragraphs: ['The link may be incomplete, mistyped or expired. Open it again from the email it came in.'],
});

const TAKEN = renderEmailLinkPage({
  title: 'This address already has a Loop account',
  paragraphs: ['Log in with it, or keep the address you had. Nothing was changed.'],
});

/**
 * The pages of e-mail links, without signing in (decision 0047): GET shows a page with a button,
 * POST does it, so a mail scanner that opens links changes nothing.
 * - /email/confirm/{token}: double opt-in for a person's address.
 * - /email/unsubscribe/{token}: the address gets no more e-mail. POST is also RFC 8058's one-click
 *   (body `List-Unsubscribe=One-Click`, sent by the mail provider): it needs no page.
 * An unknown link is the same 404 page whatever it is; no page names an address, person or Loop.
 */
const emailLinkRoutes: FastifyPluginAsync = async (app) => {
  await app.register(formbody, { bodyLimit: 1024 });
  const { db, config, clock } = app.ctx;
  const secret = config.SESSION_SECRET;
  const limit = app.attemptLimiter({ name: 'email-links', perIp: LINKS_PER_IP, windowMs: WINDOW_MS });

  app.get<Params>('/email/confirm/:token', { preHandler: limit }, async (request, reply) => {
    const { token } = request.params;
    if (!TOKEN.test(token) || !(await confirmLinkIsValid(db, secret, token, clock()))) return sendHtml(reply.code(404), NOT_VALID);
    return sendHtml(
      reply,
      renderEmailLinkPage({
        title: 'Confirm your email address',
        paragraphs: ['Confirm to get the newsletter from Loop by email. You can unsubscribe from any email with one click.'],
        form: { action: `/email/confirm/${token}`, button: 'Confirm my address' },
      }),
    );
  });

  app.post<Params>('/email/confirm/:token', { preHandler: limit }, async (request, reply) => {
    const { token } = request.params;
    const confirmed = TOKEN.test(token) ? await confirmEmailAddress(db, secret, token, clock()) : false;
    if (!confirmed) return sendHtml(reply.code(404), NOT_VALID);
    // Only the mailbox's holder reads this page: they may learn their address has an account.
    if (confirmed === 'taken') return sendHtml(reply.code(409), TAKEN);
    return sendHtml(
      reply,
      renderEmailLinkPage({
        title: 'Your address is confirmed',
        paragraphs: ['The newsletter will come by email from now on. Every email has a link to unsubscribe.'],
      }),
    );
  });

  app.get<Params>('/email/unsubscribe/:token', { preHandler: limit }, async (request, reply) => {
    const { token } = request.params;
    if (!TOKEN.test(token) || !(await unsubscribeLinkIsValid(db, secret, token))) return sendHtml(reply.code(404), NOT_VALID);
    return sendHtml(
      reply,
      renderEmailLinkPage({
        title: 'Unsubscribe from Loop emails?',
        paragraphs: ['This address will get no more emails from Loop. Texts are not affected.'],
        form: { action: `/email/unsubscribe/${token}`, button: 'Unsubscribe', fields: { 'List-Unsubscribe': 'One-Click' } },
      }),
    );
  });

  app.post<Params>('/email/unsubscribe/:token', { preHandler: limit }, async (request, reply) => {
    const { token } = request.params;
    if (!TOKEN.test(token) || !(await unsubscribeByLink(db, secret, token))) return sendHtml(reply.code(404), NOT_VALID);
    return sendHtml(
      reply,
      renderEmailLinkPage({
        title: 'You are unsubscribed',
        paragraphs: ['This address will get no more emails from Loop. To get the newsletter by email again, choose it on your Profile.'],
      }),
    );
  });
};

function sendHtml(reply: FastifyReply, html: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

export default emailLinkRoutes;
