/**
 * The server's configuration: the infrastructure's slice (infra/config.ts), the operations slice
 * (infra/metrics/config.ts) and every module's
 * (`FeatureModule.config`, each in its folder's `config.ts`), read from one environment.
 */
import { type AppConfig, INFRA_CONFIG, loadConfigSlices } from '../infra/config.js';
import { OPERATIONS_CONFIG } from '../infra/metrics/config.js';
import { MODULES } from './modules.js';

/**
 * Reads the configuration from an environment (e.g. `process.env`; never read unless given).
 * Errors: throws an Error naming every invalid variable (`invalid configuration: NAME: why; …`).
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  return loadConfigSlices(env, [
    INFRA_CONFIG,
    OPERATIONS_CONFIG,
    ...MODULES.flatMap((m) => (m.config ? [m.config] : [])),
  ]);
}
