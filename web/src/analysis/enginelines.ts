// The analysis board's engine lines: `POST /api/analyse` asked again with
// longer times while the position stays shown (300 ms, 1 s, 3 s), so the
// lines deepen; a new position cancels the request in flight. MultiPV 1-3,
// an arrow for each line's first move, each line in the chosen notation and
// clickable (plays the line up to the clicked move on the board).

import type { DrawShape } from 'shogiground/draw';

import { ApiError } from '../api/api';
import { h, option } from '../dom';
import { t } from '../i18n/i18n';
import { moveShape } from '../board/ground';
import { lineMoveText } from '../board/movetext';
import { scoreText } from '../engine/score';
import type { Notation } from '../board/notation';
import { replay, type Color } from '../board/shogi';

/** One line of `POST /api/analyse`. */
export interface EngineLine {
  score_cp: number;
  mate: number | null;
  pv: string[];
}

/** `POST /api/analyse`'s answer. */
export interface EngineLinesAnswer {
  depth: number;
  nodes: number;
  lines: EngineLine[];
}

/** The search times asked one after the other for one position, in ms. */
export const DEEPENING_MS = [300, 1000, 3000];
/** How long a position must stay shown before the engine is asked. */
const SETTLE_MS = 150;
/** The most moves of a line shown. */
const SHOWN_MOVES = 12;
const BRUSHES = ['primary', 'alternative0', 'alternative1'];
const STORE_KEY = 'shogi.analysis.engine';

/** What the panel needs from the board. */
export interface EngineHost {
  /** The lines changed: draw the arrows again. */
  linesChanged(): void;
  /** Plays `moves` from the shown position. */
  playLine(moves: string[]): void;
}

/** The score of a line in words, from Sente's side: `+0.45`, `☗ #3` (`engine/score.ts`). */
export function lineScoreText(l: EngineLine): string {
  return scoreText(l.score_cp, l.mate);
}

export class EngineLines {
  private sfen = '';
  private answer: EngineLinesAnswer | null = null;
  private error = '';
  private thinking = false;
  private abort: AbortController | null = null;
  private timer: number | undefined;
  private on: boolean;
  private multipv: number;
  readonly el = h('div', { class: 'engine-lines', id: 'engine-lines' });

  constructor(
    private host: EngineHost,
    private notation: () => Notation,
  ) {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? '{}') as { on?: boolean; multipv?: number };
    this.on = saved.on ?? true;
    this.multipv = Math.max(1, Math.min(3, saved.multipv ?? 2));
  }

  /** Stops asking (the board went away); the next {@link show} asks afresh. */
  destroy(): void {
    this.cancel();
    this.sfen = '';
  }

  /** The board shows `sfen` now: asks the engine about it (unless it already did). */
  show(sfen: string): void {
    if (sfen === this.sfen) return;
    this.sfen = sfen;
    this.restart();
  }

  private restart(): void {
    this.cancel();
    this.answer = null;
    this.error = '';
    this.thinking = this.on;
    this.render();
    this.host.linesChanged();
    if (!this.on) return;
    const sfen = this.sfen;
    this.timer = window.setTimeout(() => this.deepen(sfen), SETTLE_MS);
  }

  private cancel(): void {
    window.clearTimeout(this.timer);
    this.abort?.abort();
    this.abort = null;
  }

  private async deepen(sfen: string): Promise<void> {
    for (const time_ms of DEEPENING_MS) {
      const abort = new AbortController();
      this.abort = abort;
      try {
        const res = await fetch('/api/analyse', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sfen, multipv: this.multipv, time_ms }),
          signal: abort.signal,
        });
        const data = await res.json().catch(() => null);
        if (!res.ok) throw new ApiError(res.status, data?.error ?? `${res.status}`);
        if (this.sfen !== sfen || abort.signal.aborted) return;
        this.answer = data as EngineLinesAnswer;
      } catch (e) {
        if (abort.signal.aborted || this.sfen !== sfen) return;
        this.error = e instanceof Error ? e.message : String(e);
        break;
      }
      this.render();
      this.host.linesChanged();
    }
    if (this.sfen === sfen) {
      this.thinking = false;
      this.render();
    }
  }

  /** Arrows for each line's first move (`turn` to move). */
  shapes(turn: Color): DrawShape[] {
    if (!this.on || !this.answer) return [];
    return this.answer.lines
      .map((l, i) => (l.pv[0] ? moveShape(l.pv[0], turn, BRUSHES[i] ?? 'primary') : null))
      .filter((s): s is DrawShape => s !== null);
  }

  private save(): void {
    localStorage.setItem(STORE_KEY, JSON.stringify({ on: this.on, multipv: this.multipv }));
  }

  /** Draws the panel again (the notation may have changed). */
  render(): void {
    const toggle = h('input', { type: 'checkbox', id: 'engine-on', checked: this.on });
    toggle.addEventListener('change', () => {
      this.on = toggle.checked;
      this.save();
      this.restart();
    });
    const pv = h(
      'select',
      { id: 'engine-multipv', 'aria-label': t('anLines') },
      ['1', '2', '3'].map((n) => option(n, n, String(this.multipv))),
    );
    pv.addEventListener('change', () => {
      this.multipv = Number(pv.value);
      this.save();
      this.restart();
    });
    const head = h(
      'div',
      { class: 'controls engine-head' },
      h('label', {}, toggle, ` ${t('anEngine')}`),
      h('label', {}, `${t('anLines')} `, pv),
      h(
        'span',
        { class: 'engine-status', id: 'engine-status', role: 'status' },
        this.answer
          ? t('anDepth')
              .replace('{depth}', String(this.answer.depth))
              .replace('{nodes}', this.answer.nodes.toLocaleString())
          : '',
        this.thinking && this.on ? ` ${t('anThinking')}` : '',
      ),
    );
    const body: HTMLElement[] = [];
    if (this.error) body.push(h('p', { class: 'error', id: 'engine-error' }, this.error));
    if (this.on && this.answer && this.answer.lines.length === 0)
      body.push(h('p', { id: 'engine-no-move' }, t('anNoMove')));
    if (this.on && this.answer) {
      this.answer.lines.forEach((l, i) => {
        const { infos } = replay(this.sfen, l.pv);
        const moves = infos.slice(0, SHOWN_MOVES).map((_, k) => {
          const b = h(
            'button',
            { type: 'button', class: 'pv-move', 'data-k': String(k), title: t('anPlayLine') },
            lineMoveText(infos, k, this.notation()),
          );
          b.addEventListener('click', () => this.host.playLine(l.pv.slice(0, k + 1)));
          return b;
        });
        body.push(
          h(
            'div',
            { class: 'engine-line', 'data-line': String(i) },
            h('span', { class: 'engine-score' }, lineScoreText(l)),
            ...moves,
            infos.length > SHOWN_MOVES ? '…' : '',
          ),
        );
      });
    }
    this.el.replaceChildren(head, ...body);
  }
}
