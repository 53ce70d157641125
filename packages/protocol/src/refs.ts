/**
 * The names games are known by beyond their id — a daily (UTC date + daily preset) and a race (invite
 * code) — shared by the game, daily and race schemas.
 */
import { z } from 'zod';
import { DAILY_PRESETS } from './constants.js';

export { DAILY_PRESETS };
/** A daily preset. */
export const DailyPresetSchema = z.enum(DAILY_PRESETS);
/** A daily preset (`classic-draw1`, `classic-draw3`). */
export type DailyPreset = (typeof DAILY_PRESETS)[number];

/** A UTC date `YYYY-MM-DD`. */
export const DateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC date YYYY-MM-DD');

/** An invite code: 10 characters of an unambiguous alphabet (about 50 bits), unguessable. */
export const RaceCodeSchema = z.string().regex(/^[A-HJ-NP-Z2-9]{10}$/, 'an invite code');
