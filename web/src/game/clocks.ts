// The game screen's clocks: the server's last reading counted down every
// 100 ms in the players' rows, standing still (and saying so) while the
// socket is cut; the byoyomi beeps of the clock the player listens to, and
// the sound switch beside it.

import type { GameState, Side } from '../api/api';
import { t } from '../i18n/i18n';
import { h } from '../dom';
import { beepDue, playBeep, setSoundOn, soundOn } from './byoyomi';
import { type ClockNow, type ClockReading, clockNow, clockText } from './countdown';
import type { LiveGame } from './state';

export class GameClocks {
  reading: ClockReading | null = null;
  /** performance.now() when the socket closed: the clocks stand still and read "unknown" until the next state. */
  private lostAt: number | null = null;
  /** The last reading of the clock the sounds follow, and whose it was. */
  private beepReading: { side: Side; now: ClockNow } | null = null;
  private timer = 0;

  /** The clocks are the `.clock` elements under `root`. */
  constructor(
    private root: HTMLElement,
    private game: LiveGame,
  ) {}

  /** Counts down from now on. */
  start(): void {
    this.timer = window.setInterval(() => this.render(), 100);
  }

  destroy(): void {
    window.clearInterval(this.timer);
  }

  /** A new state: its clocks are the reading from now. */
  update(s: GameState): void {
    this.lostAt = null;
    if (s.clocks) {
      const prevFull = this.reading?.fullPeriod ?? 0;
      this.reading = {
        state: s.clocks,
        at: performance.now(),
        fullPeriod: Math.max(prevFull, s.clocks.sente.byoyomi_ms, s.clocks.gote.byoyomi_ms),
        over: s.status.over,
      };
    } else this.reading = null;
  }

  /** The socket closed: the readings are stale from now until the next state. */
  connectionLost(): void {
    if (this.lostAt === null) this.lostAt = performance.now();
  }

  /** Byoyomi beeps for the clock the player listens to: their own, or (spectators, local games) the side to move. */
  private soundBeeps(now: number, lost: boolean): void {
    const r = this.reading;
    const you = this.game.you;
    const side: Side | null = you === 'sente' || you === 'gote' ? you : (r?.state.running ?? null);
    if (!r || !side || lost) {
      this.beepReading = null;
      return;
    }
    const cur = clockNow(r, side, now);
    const prev = this.beepReading?.side === side ? this.beepReading.now : null;
    this.beepReading = { side, now: cur };
    const beep = beepDue(prev, cur);
    if (beep && soundOn()) playBeep(beep);
  }

  render(): void {
    if (!this.reading) return;
    // While the connection is lost the readings are stale: stop where they were and say so.
    const lost = this.lostAt !== null && !this.reading.over;
    const now = this.lostAt ?? performance.now();
    this.soundBeeps(now, lost);
    for (const el of this.root.querySelectorAll<HTMLElement>('.clock')) {
      const side = el.dataset.side as Side;
      const c = clockNow(this.reading, side, now);
      const text = clockText(c);
      if (lost) text.extra = t('clockPaused');
      const main = el.querySelector('.main');
      const extra = el.querySelector('.extra');
      if (main && main.textContent !== text.main) main.textContent = text.main;
      if (extra && extra.textContent !== text.extra) extra.textContent = text.extra;
      el.classList.toggle('running', c.running && !lost);
      el.classList.toggle('low', c.running && !lost && text.low);
      el.classList.toggle('paused', lost);
      if (lost) el.title = t('clockPausedTitle');
      else el.removeAttribute('title');
    }
  }
}

/** The byoyomi sound switch beside the clock (off until turned on; remembered); `redraw` after a switch. */
export function soundToggle(redraw: () => void): HTMLElement {
  const on = soundOn();
  const label = on ? t('soundOn') : t('soundOff');
  return h(
    'button',
    {
      type: 'button',
      id: 'sound-toggle',
      class: 'sound-toggle',
      'aria-pressed': String(on),
      'aria-label': label,
      title: label,
      onclick: () => {
        setSoundOn(!soundOn());
        redraw();
      },
    },
    '♪',
  );
}
