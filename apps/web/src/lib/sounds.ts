/**
 * The table's sounds, generated in the browser with the Web Audio API (oscillators and noise shaped by
 * envelopes): no sound files, nothing to license. Each is a fraction of a second and quiet. The audio context
 * is made on the first sound (after a click or a key, as browsers require) and reused.
 */

/** The sounds there are. */
export type SoundKind = 'move' | 'draw' | 'foundation' | 'win';

let ctx: AudioContext | null = null;

function context(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor = typeof AudioContext === 'function' ? AudioContext : null;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  return ctx;
}

/** A short tone: `freq` Hz, starting `at` s from now, `len` s long, with a quick attack and an exponential fade. */
function tone(
  c: AudioContext,
  freq: number,
  at: number,
  len: number,
  type: OscillatorType,
  gain: number,
): void {
  const t = c.currentTime + at;
  const osc = c.createOscillator();
  const amp = c.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + len);
  osc.connect(amp).connect(c.destination);
  osc.start(t);
  osc.stop(t + len + 0.02);
}

/** A burst of filtered noise: a card's snap on the felt. */
function snap(c: AudioContext, len: number, cutoff: number, gain: number): void {
  const frames = Math.max(1, Math.floor(c.sampleRate * len));
  const buffer = c.createBuffer(1, frames, c.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const src = c.createBufferSource();
  src.buffer = buffer;
  const filter = c.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = cutoff;
  const amp = c.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(c.destination);
  src.start();
}

/** Plays one sound (nothing where the browser has no Web Audio). */
export function playSound(kind: SoundKind): void {
  const c = context();
  if (!c) return;
  if (c.state === 'suspended') void c.resume();
  switch (kind) {
    case 'move':
      snap(c, 0.06, 1800, 0.5);
      break;
    case 'draw':
      snap(c, 0.09, 3200, 0.35);
      break;
    case 'foundation':
      snap(c, 0.05, 2000, 0.4);
      tone(c, 880, 0.02, 0.18, 'sine', 0.08);
      break;
    case 'win':
      [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => tone(c, f, i * 0.12, 0.5, 'triangle', 0.1));
      break;
  }
}
