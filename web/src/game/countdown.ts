// Clock display: the server's readings counted down locally.

import type { ClockView, GameState, Side } from '../api/api';
import { t } from '../i18n/i18n';

export interface ClockReading {
  state: NonNullable<GameState['clocks']>;
  /** performance.now() when the reading arrived. */
  at: number;
  /** The longest byoyomi period seen: the full period. */
  fullPeriod: number;
  over: boolean;
}

export interface ClockNow {
  mainMs: number;
  byoyomiMs: number;
  periodsLeft: number;
  inByoyomi: boolean;
  hasByoyomi: boolean;
  running: boolean;
}

export function clockNow(r: ClockReading, side: Side, now: number): ClockNow {
  const c: ClockView = r.state[side];
  const running = !r.over && r.state.running === side;
  let elapsed = running ? Math.max(0, now - r.at) : 0;
  let mainMs = c.main_ms;
  let byoyomiMs = c.byoyomi_ms;
  let periodsLeft = c.periods_left;
  const hasByoyomi = r.fullPeriod > 0;
  const used = Math.min(mainMs, elapsed);
  mainMs -= used;
  elapsed -= used;
  if (elapsed > 0 && hasByoyomi) {
    while (elapsed > 0 && periodsLeft > 0) {
      if (elapsed < byoyomiMs) {
        byoyomiMs -= elapsed;
        elapsed = 0;
      } else {
        elapsed -= byoyomiMs;
        periodsLeft -= 1;
        byoyomiMs = periodsLeft > 0 ? r.fullPeriod : 0;
      }
    }
  }
  return {
    mainMs,
    byoyomiMs,
    periodsLeft,
    inByoyomi: hasByoyomi && mainMs <= 0,
    hasByoyomi,
    running,
  };
}

export function fmt(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export function clockText(c: ClockNow): { main: string; extra: string; low: boolean } {
  if (c.inByoyomi) {
    return {
      main: fmt(c.byoyomiMs),
      extra: `${t('byoyomi')}${c.periodsLeft > 1 ? ` ×${c.periodsLeft}` : ''}`,
      low: c.byoyomiMs < 10000,
    };
  }
  return {
    main: fmt(c.mainMs),
    extra: c.hasByoyomi ? `+${fmt(c.byoyomiMs)}${c.periodsLeft > 1 ? ` ×${c.periodsLeft}` : ''}` : '',
    low: c.mainMs < 10000 && !c.hasByoyomi,
  };
}
