// The review board's mate search: the server's mate solver run on the shown
// position, and the mating line stepped through on the board.

import { request as call } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { lineMoveText } from '../board/movetext';
import { replay, type MoveInfo, type Position } from '../board/shogi';

/** A search's answer and the line replayed, stepped to `at` moves into it. */
interface MateLine {
  /** `mate`, `nomate`, `timeout`, or the server's error message. */
  result: string;
  moves: string[];
  positions: Position[];
  infos: MoveInfo[];
  at: number;
}

/** What the mate search needs from the review board. */
export interface MateHost {
  /** The search or the step changed: draw the board and the panels again. */
  render(): void;
}

/** The mate search of the review board and the line it found. */
export class MateSearch {
  private line: MateLine | null = null;
  private busy = false;

  constructor(private host: MateHost) {}

  /** A search's answer is shown (the arrow keys step through its line). */
  get open(): boolean {
    return this.line !== null;
  }

  /** The position stepped to in the mating line, when past its start: the board shows it. */
  shown(): { pos: Position; info: MoveInfo | undefined } | null {
    const m = this.line;
    if (!m || m.at === 0) return null;
    return { pos: m.positions[m.at], info: m.infos[m.at - 1] };
  }

  /** Forgets the answer (the board went elsewhere). */
  clear(): void {
    this.line = null;
  }

  /** Steps `by` moves along the mating line (clamped to its ends). */
  stepBy(by: number): void {
    if (this.line) this.step(this.line.at + by);
  }

  private step(at: number): void {
    if (!this.line) return;
    this.line.at = Math.max(0, Math.min(this.line.infos.length, at));
    this.host.render();
  }

  /** Searches for a mate from `sfen` (five seconds at most). */
  async search(sfen: string): Promise<void> {
    this.busy = true;
    this.host.render();
    try {
      const r = await call<{ result: string; moves: string[] }>(
        'POST',
        '/api/mate',
        JSON.stringify({ sfen, time_ms: 5000 }),
        true,
      );
      const line = replay(sfen, r.moves);
      this.busy = false;
      this.line = { ...r, positions: line.positions, infos: line.infos, at: 0 };
    } catch (e) {
      this.busy = false;
      this.line = { result: e instanceof Error ? e.message : String(e), moves: [], positions: [], infos: [], at: 0 };
    }
    this.host.render();
  }

  /** The panel: the search button (searching `sfen()`), the answer and the line with its steps. */
  panel(sfen: () => string): HTMLElement {
    const b = h('button', { type: 'button', id: 'mate-search', disabled: this.busy }, t('mateSearch'));
    b.addEventListener('click', () => this.search(sfen()));
    const parts: (HTMLElement | string | null)[] = [b];
    if (this.busy) parts.push(h('span', {}, ` ${t('searching')}`));
    const m = this.line;
    if (m) {
      const head =
        m.result === 'mate'
          ? `${t('mateFound')} (${m.moves.length})`
          : m.result === 'nomate'
            ? t('noMate')
            : m.result === 'timeout'
              ? t('mateTimeout')
              : m.result;
      parts.push(h('p', { id: 'mate-result', 'data-result': m.result }, head));
      if (m.infos.length) {
        const line = h(
          'div',
          { class: 'moves mate-line', id: 'mate-line' },
          m.infos.map((_, i) =>
            h(
              'span',
              { class: `move${m.at === i + 1 ? ' current' : ''}`, 'data-step': String(i + 1) },
              `${i + 1}. ${lineMoveText(m.infos, i)}`,
            ),
          ),
        );
        line.addEventListener('click', (e) => {
          const el = (e.target as HTMLElement).closest<HTMLElement>('.move');
          if (el?.dataset.step) this.step(Number(el.dataset.step));
        });
        const back = h('button', { type: 'button', id: 'mate-prev' }, '‹');
        back.addEventListener('click', () => this.step(m.at - 1));
        const fwd = h('button', { type: 'button', id: 'mate-next' }, '›');
        fwd.addEventListener('click', () => this.step(m.at + 1));
        parts.push(h('h3', {}, t('mateLine')), line, h('div', { class: 'nav' }, back, fwd));
      }
    }
    return h('div', { class: 'mate', id: 'mate' }, parts);
  }
}
