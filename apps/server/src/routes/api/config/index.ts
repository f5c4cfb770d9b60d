import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiConfig } from '@loop/shared/simulator';
import { isMailSimulated } from '../../../services/simulator-access';
import { getLandingLinks } from '../../../services/demo/get-landing-links';

/**
 * GET /api/config, public: how this Loop runs (with Twilio or the Phone Simulator, with SMTP or the Mail Simulator) and the
 * landing page's links. The web app reads it before anything else.
 */
const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { prefixTrailingSlash: 'no-slash' }, async (): Promise<ApiConfig> => ({
    messagingProvider: app.ctx.config.messagingProvider,
    mailTransport: isMailSimulated(app.ctx.config) ? 'simulator' : 'smtp',
    quietHours: app.ctx.config.QUIET_HOURS,
    links: await getLandingLinks(app.ctx.db, app.ctx.config),
  }));
};

export default configRoutes;
