/**
 * Plugin `security`: the browser-facing security headers (helmet) with a Content-Security-Policy
 * the web client and the API docs pass: scripts, styles, fonts and connections from this origin only
 * (WebSockets included), images also from `data:` (the favicon and Swagger UI's icons), no framing by other
 * sites (`frame-ancestors 'none'`), no plugins, `nosniff`, no referrer across origins. HSTS is sent only on
 * requests that arrived over TLS (directly, or through a proxy trusted with TRUST_PROXY), since a browser
 * ignores it over plain HTTP and a local `pnpm start` must not pin localhost to HTTPS.
 */
import helmet from 'helmet';
import fp from 'fastify-plugin';

/** The Content-Security-Policy directives (helmet's format). */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Swagger UI (/docs) sets inline style attributes; the game client needs none, but one policy serves both.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
} as const;

/** HSTS value sent over TLS: one year, subdomains included. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Registers the headers and the TLS-only HSTS header. helmet's middleware is made once and set on every
 * request's response (@fastify/helmet, which did the same, built the middleware again for each request:
 * its options parsed and its policy written anew, a measurable share of a node's CPU at a midnight).
 */
export const securityPlugin = fp(
  (app, _opts, done) => {
    const setHeaders = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES } },
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
    });
    app.addHook('onRequest', (req, reply, next) => {
      setHeaders(req.raw, reply.raw, (err?: unknown) => {
        if (err === undefined || err === null) next();
        else next(err instanceof Error ? err : new Error('the security headers could not be set'));
      });
    });
    app.addHook('onSend', async (req, reply) => {
      if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    });
    done();
  },
  { name: 'security', fastify: '5.x', dependencies: ['config'] },
);
