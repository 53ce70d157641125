/**
 * Plugin `security`: the browser-facing security headers (@fastify/helmet) with a Content-Security-Policy
 * the web client and the API docs pass: scripts, styles, fonts and connections from this origin only
 * (WebSockets included), images also from `data:` (the favicon and Swagger UI's icons), no framing by other
 * sites (`frame-ancestors 'none'`), no plugins, `nosniff`, no referrer across origins. HSTS is sent only on
 * requests that arrived over TLS (directly, or through a proxy trusted with TRUST_PROXY), since a browser
 * ignores it over plain HTTP and a local `pnpm start` must not pin localhost to HTTPS.
 */
import helmet from '@fastify/helmet';
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

/** Registers helmet and the TLS-only HSTS header. */
export const securityPlugin = fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES } },
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'same-origin' },
    });
    app.addHook('onSend', async (req, reply) => {
      if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    });
  },
  { name: 'security', fastify: '5.x', dependencies: ['config'] },
);
