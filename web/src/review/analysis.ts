// The review board's analysis panel: asking the server to analyse the game,
// its progress, the evaluation graph and the list of mistakes
// (docs/PROTOCOL.md, "Review and analysis").

import { request as call } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { WIN_RATE_GRID, winRate } from './winrate';
import { lineMoveText, usiMoveText } from '../board/movetext';
import { scoreText } from '../engine/score';
import type { MoveInfo, Position } from '../board/shogi';

/** The engine's verdict on one position of the main line. */
export interface Eval {
  ply: number;
  score_cp: number;
  mate: number | null;
  best_move: string | null;
}

/** A move of the main line the analysis flags, with the move it prefers. */
export interface Mistake {
  ply: number;
  kind: 'inaccuracy' | 'mistake' | 'blunder';
  better: string;
}

/** The server's analysis of a game (`GET /api/games/{id}/analysis`). */
interface Analysis {
  status: 'none' | 'queued' | 'running' | 'done';
  done_plies: number;
  /** The analysis is paused because live games are being played. */
  waiting_for_live_play?: boolean;
  total_plies: number;
  evals: Eval[];
  mistakes: Mistake[];
}

/** What the analysis panel needs from the review board. */
export interface AnalysisHost {
  /** The analysis changed: draw the board and the panels again. */
  render(): void;
  /** Shows the position after `ply` moves of the main line. */
  goMain(ply: number): void;
}

/** Where the review board stands, for the panel's cursor and evaluation. */
export interface AnalysisView {
  /** Moves into the shown line. */
  ply: number;
  /** The shown line is the main line (the analysis covers only the main line). */
  onMain: boolean;
  /** The main line's moves, for the mistakes' text. */
  mainInfos: MoveInfo[];
  /** The main line's positions (start included), for the best and better moves' text. */
  mainPositions: Position[];
}

/** The analysis of one game: loaded, started and polled until done. */
export class GameAnalysis {
  private analysis: Analysis | null = null;
  private poll = 0;

  constructor(
    private id: string,
    private host: AnalysisHost,
  ) {}

  /** Stops polling. */
  destroy(): void {
    window.clearTimeout(this.poll);
  }

  /** The evaluation of the position after `ply` moves of the main line, once analysed. */
  evalAt(ply: number): Eval | undefined {
    return this.analysis?.evals[ply];
  }

  /** The flagged moves of the main line. */
  mistakes(): Mistake[] {
    return this.analysis?.mistakes ?? [];
  }

  /** Loads the analysis, polling every second while it is queued or running. */
  async load(): Promise<void> {
    try {
      this.analysis = await call<Analysis>('GET', `/api/games/${this.id}/analysis`);
    } catch {
      return;
    }
    this.host.render();
    if (this.analysis.status === 'queued' || this.analysis.status === 'running') {
      this.poll = window.setTimeout(() => this.load(), 1000);
    }
  }

  private async start(): Promise<void> {
    try {
      this.analysis = await call<Analysis>('POST', `/api/games/${this.id}/analysis`);
    } catch (e) {
      window.alert(e instanceof Error ? e.message : String(e));
      return;
    }
    this.host.render();
    window.clearTimeout(this.poll);
    this.poll = window.setTimeout(() => this.load(), 500);
  }

  /** The text of a USI move of the main line's position `ply` (the move list's notation). */
  private moveAt(view: AnalysisView, ply: number, usi: string): string {
    return usiMoveText(view.mainPositions[ply], usi, ply > 0 ? view.mainInfos[ply - 1]?.to : undefined);
  }

  /** The panel: a button to start, or the progress, the graph and the evaluation here. */
  panel(view: AnalysisView): HTMLElement {
    const a = this.analysis;
    const parts: (Element | string)[] = [h('h2', {}, t('analysis'))];
    if (!a || a.status === 'none') {
      const b = h('button', { type: 'button', id: 'analyse' }, t('analyse'));
      b.addEventListener('click', () => this.start());
      parts.push(b);
    } else {
      const status =
        a.status === 'queued'
          ? t('queued')
          : a.status === 'running'
            ? `${t('analysing')} ${a.done_plies}/${a.total_plies}`
            : t('analysed');
      const paused = a.status !== 'done' && a.waiting_for_live_play ? ` (${t('waitingForLive')})` : '';
      parts.push(h('p', { id: 'analysis-status', 'data-status': a.status }, status + paused));
      parts.push(this.graph(a, view.ply));
      const ev = view.onMain ? a.evals[view.ply] : undefined;
      if (ev) {
        parts.push(
          h(
            'p',
            { id: 'eval-now' },
            `${t('evaluation')}: ${evalText(ev)}`,
            ev.best_move ? ` · ${t('bestMove')}: ` : '',
            ev.best_move ? h('span', { id: 'best-move' }, this.moveAt(view, view.ply, ev.best_move)) : '',
          ),
        );
      }
    }
    const panel = h('div', { class: 'analysis', id: 'analysis' });
    panel.append(...parts);
    return panel;
  }

  /** The text of the move the analysis prefers to the mistake `m` (the move list's notation). */
  betterText(view: AnalysisView, m: Mistake): string {
    return this.moveAt(view, m.ply - 1, m.better);
  }

  /** The flagged moves of the main line, each with the better move; null before any are known. */
  mistakeList(view: AnalysisView): HTMLElement | null {
    const a = this.analysis;
    if (!a || a.status === 'none') return null;
    return h(
      'ul',
      { class: 'mistakes', id: 'mistakes' },
      a.mistakes.map((m) => {
        const li = h(
          'li',
          { class: `flag-${m.kind}`, 'data-ply': String(m.ply) },
          `${m.ply}. ${view.mainInfos[m.ply - 1] ? lineMoveText(view.mainInfos, m.ply - 1) : ''} — ${t(m.kind)}; ${t('better')}: `,
          h('span', { class: 'better' }, this.betterText(view, m)),
        );
        li.addEventListener('click', () => this.host.goMain(m.ply - 1));
        return li;
      }),
    );
  }

  /**
   * The evaluation graph: Sente's win rate (`winRate`, 0-100 %, mates at the
   * ends) per position, gridlines at 25/50/75 %, the cursor at `ply`; a click
   * shows that position of the main line.
   */
  private graph(a: Analysis, ply: number): SVGSVGElement {
    const NS = 'http://www.w3.org/2000/svg';
    const W = 360;
    const H = 150;
    const L = 36;
    const R = 6;
    const T = 8;
    const B = 8;
    const n = Math.max(1, a.total_plies);
    const x = (p: number) => L + (p / n) * (W - L - R);
    const y = (rate: number) => T + (1 - rate) * (H - T - B);
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'eval-graph');
    svg.setAttribute('id', 'eval-graph');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('winRateSente'));
    const el = (tag: string, attrs: Record<string, string | number>, text?: string) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    el('title', {}, t('winRateSente'));
    el('rect', { x: L, y: T, width: W - L - R, height: H - T - B, class: 'bg' });
    for (const pct of WIN_RATE_GRID) {
      const gy = y(pct / 100);
      el('line', { x1: L, y1: gy, x2: W - R, y2: gy, class: pct === 50 ? 'axis' : 'grid' });
      el('text', { x: L - 4, y: gy + 4, 'text-anchor': 'end', class: 'label' }, `${pct}%`);
    }
    el('line', { x1: x(ply), y1: T, x2: x(ply), y2: H - B, class: 'cursor' });
    const rate = (e: Eval) => winRate(e.score_cp, e.mate);
    if (a.evals.length) {
      el('polyline', {
        points: a.evals.map((e) => `${x(e.ply).toFixed(1)},${y(rate(e)).toFixed(1)}`).join(' '),
        class: 'line',
      });
    }
    const flagged = new Set(a.mistakes.map((m) => m.ply));
    for (const e of a.evals) {
      const c = el('circle', {
        cx: x(e.ply).toFixed(1),
        cy: y(rate(e)).toFixed(1),
        r: flagged.has(e.ply) ? 4 : 3,
        class: `point${flagged.has(e.ply) ? ' flagged' : ''}${e.ply === ply ? ' current' : ''}`,
        'data-ply': e.ply,
      });
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${e.ply}: ${Math.round(rate(e) * 100)}% (${evalText(e)})`;
      c.append(title);
    }
    svg.addEventListener('click', (ev) => {
      const target = ev.target as Element;
      const p = target.getAttribute('data-ply');
      if (p !== null) {
        this.host.goMain(Number(p));
        return;
      }
      // A click anywhere else picks the nearest ply.
      const box = svg.getBoundingClientRect();
      const px = ((ev.clientX - box.left) / box.width) * W;
      this.host.goMain(Math.round(((px - L) / (W - L - R)) * n));
    });
    return svg;
  }
}

/** An evaluation in words, as everywhere (`engine/score.ts`): `+1.19` from Sente's side, `☗ #5`. */
function evalText(e: Eval): string {
  return scoreText(e.score_cp, e.mate);
}
