/** The players' settings (PLAYER_CREATE_RATE_MAX): their slice of `AppConfig`. */
import { z } from 'zod';

/** The players' settings. */
export interface PlayersConfig {
  /** Players one client may create per hour (env PLAYER_CREATE_RATE_MAX, default 10; 0 = no extra limit). */
  readonly playerCreateRateMax: number;
}

declare module '../../infra/config.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the players' settings join AppConfig
  interface AppConfig extends PlayersConfig {}
}

/** The players' slice of the configuration. */
export const PLAYERS_CONFIG = z
  .object({
    PLAYER_CREATE_RATE_MAX: z.coerce.number().int().min(0).default(10),
  })
  .transform((e): PlayersConfig => ({ playerCreateRateMax: e.PLAYER_CREATE_RATE_MAX }));
