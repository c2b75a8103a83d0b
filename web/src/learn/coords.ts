// The coordinates trainer at `/learn/coordinates`: a square is named (`7f`,
// `７六` or `76`) and the player clicks it on an empty board, as many as
// possible in 30 seconds; the board seen from Sente's or Gote's side; the
// best score per notation and side kept in this browser.

import type { Api } from 'shogiground/api';
import type * as sg from 'shogiground/types';

import { h, option } from '../dom';
import { makeGround } from '../board/ground';
import { t } from '../i18n/i18n';
import { bestScore, recordScore } from './progress';
import { COORD_STYLES, randomSquare, squareAt, squareName, type CoordStyle } from './lessons';
import type { Screen } from '../screen';

/** How long a run lasts. */
const RUN_MS = 30_000;

const STYLE_KEYS: Record<CoordStyle, 'coordsUsi' | 'coordsJapanese' | 'coordsNumeric'> = {
  usi: 'coordsUsi',
  japanese: 'coordsJapanese',
  numeric: 'coordsNumeric',
};

/** The trainer's screen. */
export function renderCoords(root: HTMLElement): Screen {
  return new CoordsScreen(root);
}

class CoordsScreen implements Screen {
  private style: CoordStyle = 'usi';
  private orientation: 'sente' | 'gote' = 'sente';
  private target: string | null = null;
  /** The keyboard's square. */
  private cursor = '5e';
  private score = 0;
  private misses = 0;
  private endsAt = 0;
  private timer = 0;
  private lastScore: number | null = null;
  private newBest = false;
  private boardEl = h('div', { class: 'board coords-board', id: 'coords-board' });
  private panel = h('div', { class: 'side coords-side' });
  /** The square to find, above the board so that a phone shows both. */
  private prompt = h('p', { class: 'coords-prompt', id: 'coords-prompt', 'aria-live': 'polite' });
  private ground: Api;

  constructor(private root: HTMLElement) {
    root.replaceChildren(
      h(
        'div',
        { class: 'coords', id: 'coords' },
        h('nav', { class: 'learn-nav' }, h('a', { href: '/learn', 'data-link': true }, `← ${t('learnTitle')}`)),
        h('h2', {}, t('coordsTitle')),
        this.prompt,
        h(
          'div',
          { class: 'game' },
          h('div', { class: 'board-col' }, h('div', { class: 'board-wrap' }, this.boardEl)),
          this.panel,
        ),
      ),
    );
    this.ground = makeGround(
      {
        orientation: this.orientation,
        viewOnly: true,
        coordinates: { enabled: false },
        sfen: { board: '9/9/9/9/9/9/9/9/9' },
        drawable: { enabled: false, visible: true },
      },
      { board: this.boardEl },
    );
    this.boardEl.addEventListener('pointerdown', (e) => this.click(e));
    // Keyboard play: the arrows move a cursor over the board (as it is seen), Enter or Space picks its square.
    this.boardEl.tabIndex = 0;
    this.boardEl.setAttribute('role', 'application');
    this.boardEl.setAttribute('aria-label', t('coordsKeys'));
    this.boardEl.addEventListener('keydown', (e) => this.onKey(e));
    this.render();
  }

  destroy(): void {
    window.clearInterval(this.timer);
    this.ground.destroy();
  }

  rerender(): void {
    const title = this.root.querySelector('h2');
    if (title) title.textContent = t('coordsTitle');
    this.render();
  }

  private key(): string {
    return `${this.style}-${this.orientation}`;
  }

  private get running(): boolean {
    return this.target !== null;
  }

  private startRun(): void {
    this.score = 0;
    this.misses = 0;
    this.lastScore = null;
    this.newBest = false;
    this.endsAt = Date.now() + RUN_MS;
    this.target = randomSquare(Math.random);
    window.clearInterval(this.timer);
    this.timer = window.setInterval(() => this.tick(), 200);
    this.render();
  }

  private tick(): void {
    if (Date.now() >= this.endsAt) this.stopRun();
    else this.renderTime();
  }

  private stopRun(): void {
    window.clearInterval(this.timer);
    this.target = null;
    this.lastScore = this.score;
    this.newBest = recordScore(this.key(), this.score);
    this.ground.setSquareHighlights([]);
    this.render();
  }

  private click(e: PointerEvent): void {
    if (!this.target) return;
    const box = this.boardEl.getBoundingClientRect();
    const sq = squareAt(e.clientX - box.left, e.clientY - box.top, box.width, box.height, this.orientation);
    if (sq) this.choose(sq);
  }

  /** The arrows move the cursor as the board is seen; Enter or Space picks the square under it. */
  private onKey(e: KeyboardEvent): void {
    const steps: Record<string, [number, number]> = {
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
      ArrowLeft: [1, 0],
      ArrowRight: [-1, 0],
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.target) this.choose(this.cursor);
      else this.startRun();
      return;
    }
    const step = steps[e.key];
    if (!step) return;
    e.preventDefault();
    // Seen from Gote, up is towards rank i and right towards file 9.
    const flip = this.orientation === 'gote' ? -1 : 1;
    const file = Math.min(9, Math.max(1, Number(this.cursor[0]) + step[0] * flip));
    const rank = Math.min(8, Math.max(0, 'abcdefghi'.indexOf(this.cursor[1]) + step[1] * flip));
    this.cursor = `${file}${'abcdefghi'[rank]}`;
    this.ground.setSquareHighlights([{ key: this.cursor as sg.Key, className: 'coord-cursor' }]);
  }

  private choose(sq: string): void {
    if (!this.target) return;
    const right = sq === this.target;
    if (right) this.score++;
    else this.misses++;
    this.ground.setSquareHighlights([{ key: sq as sg.Key, className: right ? 'coord-right' : 'coord-wrong' }]);
    if (right) this.target = randomSquare(Math.random, this.target);
    this.render();
  }

  private renderTime(): void {
    const el = this.panel.querySelector('#coords-time');
    if (el) el.textContent = `${Math.max(0, Math.ceil((this.endsAt - Date.now()) / 1000))} s`;
  }

  private render(): void {
    this.ground.set({ orientation: this.orientation });
    const styleSel = h(
      'select',
      { id: 'coords-style', disabled: this.running },
      COORD_STYLES.map((s) => option(s, `${t(STYLE_KEYS[s])} (${squareName('7f', s)})`, this.style)),
    );
    styleSel.addEventListener('change', () => {
      this.style = styleSel.value as CoordStyle;
      this.render();
    });
    const sideSel = h(
      'select',
      { id: 'coords-orientation', disabled: this.running },
      option('sente', t('coordsFromSente'), this.orientation),
      option('gote', t('coordsFromGote'), this.orientation),
    );
    sideSel.addEventListener('change', () => {
      this.orientation = sideSel.value as 'sente' | 'gote';
      this.render();
    });
    const start = h(
      'button',
      { type: 'button', id: 'coords-start', class: 'primary', disabled: this.running },
      t('coordsStart'),
    );
    start.addEventListener('click', () => this.startRun());
    const parts: HTMLElement[] = [
      h('p', {}, t('coordsIntro')),
      h('label', {}, `${t('coordsNotation')} `, styleSel),
      h('label', {}, `${t('coordsSide')} `, sideSel),
      start,
      h(
        'p',
        { class: 'coords-figures' },
        h('span', {}, `${t('coordsScore')}: `, h('b', { id: 'coords-score' }, String(this.score))),
        ' · ',
        h(
          'span',
          { id: 'coords-time' },
          this.running ? `${Math.ceil((this.endsAt - Date.now()) / 1000)} s` : `${RUN_MS / 1000} s`,
        ),
        ' · ',
        h('span', {}, `${t('coordsBest')}: `, h('b', { id: 'coords-best' }, String(bestScore(this.key())))),
      ),
    ];
    if (this.lastScore !== null) {
      parts.push(
        h(
          'p',
          { id: 'coords-result', role: 'status' },
          t('coordsResult').replace('{n}', String(this.lastScore)).replace('{miss}', String(this.misses)) +
            (this.newBest ? ` ${t('coordsNewBest')}` : ''),
        ),
      );
    }
    this.prompt.textContent = this.target ? squareName(this.target, this.style) : '—';
    this.panel.replaceChildren(...parts);
  }
}
