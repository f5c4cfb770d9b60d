import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The headers every answer carries (docs/security.md): a CSP without inline scripts, nosniff,
 * no framing, HSTS under https. Applied to the raw response, so answers that skip Fastify's hooks
 * (router errors, errors thrown before the hook) can be given them too.
 */
export function securityHeaders(options: {
  https: boolean;
  /** PUBLIC_URL: e-mails' photos are its absolute addresses (see imgSrc). */
  publicUrl: string;
}): (request: IncomingMessage, response: ServerResponse) => void {
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // PUBLIC_URL's origin by name as well: the Mail Simulator shows each e-mail in a frame
        // sandboxed to an opaque origin, which 'self' does not match, and an e-mail's photos are
        // absolute PUBLIC_URL addresses.
        imgSrc: ["'self'", new URL(options.publicUrl).origin, 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  return (request, response) => {
    apply(request, response, (error?: unknown) => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what helmet reported, as it reported it
      if (error) throw error;
    });
  };
}
