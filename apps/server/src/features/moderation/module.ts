/**
 * The moderation module (docs/moderation.md): `app.moderation`, the fair-play routes (reports, the caller's
 * standing and appeal, the published figures) and the moderators' routes (/api/mod…), and its settings.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { MODERATION_CONFIG } from './config.js';
import { moderationPlugin } from './plugin.js';
import { fairPlayRoutes, modRoutes } from './routes.js';

/** The moderation module. */
export const moderationModule: FeatureModule = {
  name: 'moderation',
  plugin: moderationPlugin,
  routes: [fairPlayRoutes, modRoutes],
  config: MODERATION_CONFIG,
};
