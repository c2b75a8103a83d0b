// Byoyomi sounds: which beeps a clock reading calls for, and a thin Web Audio
// wrapper that plays them. Beeps sound each second of the last 10 s of a
// byoyomi period (higher for the last 5) and a different tone when a period
// is used up, as club clocks and 81Dojo count down. The scheduling is pure
// (given the previous and the current reading of one clock); the audio side
// only turns a beep into an oscillator note.

import type { ClockNow } from './countdown';

/** A beep: a second counted (`tick`, 10..6 s left), a last second (`high`, 5..1 s), a period used up. */
export type Beep = 'tick' | 'high' | 'period';

/** Seconds of a period counted aloud. */
export const COUNTED_SECONDS = 10;
/** The last seconds counted in the higher pitch. */
export const HIGH_SECONDS = 5;

/** The beep due between two readings of the same clock (`prev` earlier, `cur` now), if any:
 * a period used up, or else the last whole second of the countdown crossed. */
export function beepDue(prev: ClockNow | null, cur: ClockNow): Beep | null {
  if (!prev?.running || !prev.inByoyomi) return null;
  if (cur.periodsLeft < prev.periodsLeft) return 'period';
  if (!cur.running || !cur.inByoyomi) return null;
  for (let s = 1; s <= COUNTED_SECONDS; s++) {
    const at = s * 1000;
    if (prev.byoyomiMs > at && cur.byoyomiMs <= at) return s <= HIGH_SECONDS ? 'high' : 'tick';
  }
  return null;
}

const STORAGE_KEY = 'shogi.sound';

/** Whether byoyomi sounds are on (off unless the player turned them on). */
export function soundOn(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns byoyomi sounds on or off, remembered in this browser. */
export function setSoundOn(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // A browser without storage forgets it on reload.
  }
}

const TONES: Record<Beep, { hz: number; ms: number }> = {
  tick: { hz: 880, ms: 90 },
  high: { hz: 1320, ms: 90 },
  period: { hz: 440, ms: 500 },
};

let audio: AudioContext | null = null;

/** Plays `beep` (and, with `?beeptest` in the page address, notes it in `window.__shogiBeeps` for tests). */
export function playBeep(beep: Beep): void {
  if (location.search.includes('beeptest')) {
    const w = window as unknown as { __shogiBeeps?: Beep[] };
    w.__shogiBeeps ??= [];
    w.__shogiBeeps.push(beep);
  }
  try {
    audio ??= new AudioContext();
    const { hz, ms } = TONES[beep];
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.value = 0.15;
    osc.connect(gain).connect(audio.destination);
    const now = audio.currentTime;
    osc.start(now);
    osc.stop(now + ms / 1000);
  } catch {
    // No audio here: the clock still counts on screen.
  }
}
