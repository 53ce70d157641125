/**
 * The maintenance module: its timer (retention, move-log compaction, stale race lobbies; `app.maintenance()`)
 * and its settings. No routes.
 */
import type { FeatureModule } from '../../core/feature-module.js';
import { MAINTENANCE_CONFIG } from './config.js';
import { maintenancePlugin } from './plugin.js';

/** The maintenance module. */
export const maintenanceModule: FeatureModule = {
  name: 'maintenance',
  plugin: maintenancePlugin,
  config: MAINTENANCE_CONFIG,
};
