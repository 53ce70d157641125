/** REST calls of live races and quick pairing (loaded with the race pages only), through the typed client. */
import type { CreateRaceBody, PairingStatusSchema, Race, RaceResultsSchema } from '@klondike/protocol';
import type { z } from 'zod';
import { callApi } from './api';

export type RaceResults = z.infer<typeof RaceResultsSchema>;

/** Creates a room (the caller is its host). */
export function createRace(body: CreateRaceBody): Promise<Race> {
  return callApi(
    (c) => c.createRace(body),
    (p) => p.RaceSchema,
  );
}

/** A room as the caller sees it (racers and spectators alike). */
export function getRace(code: string): Promise<Race> {
  return callApi(
    (c) => c.getRace(code),
    (p) => p.RaceSchema,
  );
}

/** Takes a seat (409 `conflict` when full or started). */
export function joinRace(code: string): Promise<Race> {
  return callApi(
    (c) => c.joinRace(code),
    (p) => p.RaceSchema,
  );
}

export function setReady(code: string, ready: boolean): Promise<Race> {
  return callApi(
    (c) => c.setRaceReady(code, ready),
    (p) => p.RaceSchema,
  );
}

/** Starts the countdown (the host). */
export function startRace(code: string): Promise<Race> {
  return callApi(
    (c) => c.startRace(code),
    (p) => p.RaceSchema,
  );
}

/** Placements, stats and games of a finished race. */
export function getRaceResults(code: string): Promise<RaceResults> {
  return callApi(
    (c) => c.getRaceResults(code),
    (p) => p.RaceResultsSchema,
  );
}

/** The rematch room (created by the first who asks; the old room's `rematchCode` points to it). */
export function rematchRace(code: string): Promise<Race> {
  return callApi(
    (c) => c.rematchRace(code),
    (p) => p.RaceSchema,
  );
}

/** Where the caller stands in the pairing pools (`idle`, `waiting`, `paired`). */
export type PairingStatus = z.infer<typeof PairingStatusSchema>;

/** Enters the preset's quick-pairing pool (a token is needed): `waiting`, or `paired` with the race code. */
export function enterPairing(preset: 'classic-draw1' | 'classic-draw3'): Promise<PairingStatus> {
  return callApi(
    (c) => c.enterPairing(preset),
    (p) => p.PairingStatusSchema,
  );
}

/** The caller's pairing status (pairs waiting players as a side effect on the server). */
export function getPairing(): Promise<PairingStatus> {
  return callApi(
    (c) => c.getPairing(),
    (p) => p.PairingStatusSchema,
  );
}

/** Leaves the pool: `idle`, or `paired` when the race was already made (409 while it is being made). */
export function leavePairing(): Promise<PairingStatus> {
  return callApi(
    (c) => c.leavePairing(),
    (p) => p.PairingStatusSchema,
  );
}
