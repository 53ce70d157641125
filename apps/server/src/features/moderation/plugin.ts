/**
 * Plugin `moderation` (docs/moderation.md): decorates `app.moderation`, the moderation service over its
 * repository, with the `MODERATORS` setting, the server clock and the players' token revocations (a closed
 * account is signed out on every node).
 */
import fp from 'fastify-plugin';
import { ModerationRepository } from './repository.js';
import { ModerationService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reports, moderators' actions, appeals, the audit log and the published figures (plugin `moderation`). */
    moderation: ModerationService;
  }
}

/** Registers the moderation service. */
export const moderationPlugin = fp(
  (app) => {
    app.decorate(
      'moderation',
      new ModerationService(new ModerationRepository(app.prisma), app.config.moderators, app.now, {
        closed: (playerId) => app.tokenRevocations.revoke({ playerId }),
        renamed: (playerId) => app.playerTokens.forget(playerId),
      }),
    );
    return Promise.resolve();
  },
  { name: 'moderation', fastify: '5.x', dependencies: ['config', 'db', 'auth'] },
);
