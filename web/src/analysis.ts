// The review board's analysis panel: asking the server to analyse the game,
// its progress, the evaluation graph and the list of mistakes
// (docs/PROTOCOL.md, "Review and analysis").

import { request as call } from './api';
import { h } from './dom';
import { t } from './i18n';
import { lineMoveText } from './movetext';
import type { MoveInfo } from './shogi';

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

  /** The panel: a button to start, or the progress, the graph, the evaluation here and the mistakes. */
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
        const score = ev.mate !== null ? `${t('mateFound')} ${ev.mate}` : String(ev.score_cp);
        parts.push(
          h(
            'p',
            { id: 'eval-now' },
            `${t('evaluation')}: ${score}`,
            ev.best_move ? ` · ${t('bestMove')}: ${ev.best_move}` : '',
          ),
        );
      }
      const list = h(
        'ul',
        { class: 'mistakes', id: 'mistakes' },
        a.mistakes.map((m) => {
          const li = h(
            'li',
            { class: `flag-${m.kind}`, 'data-ply': String(m.ply) },
            `${m.ply}. ${view.mainInfos[m.ply - 1] ? lineMoveText(view.mainInfos, m.ply - 1) : ''} — ${t(m.kind)}; ${t('better')}: ${m.better}`,
          );
          li.addEventListener('click', () => this.host.goMain(m.ply - 1));
          return li;
        }),
      );
      parts.push(list);
    }
    const panel = h('div', { class: 'analysis', id: 'analysis' });
    panel.append(...parts);
    return panel;
  }

  /** The evaluation graph: Sente's score, capped at ±2000, one point per position; the cursor at `ply`. */
  private graph(a: Analysis, ply: number): SVGSVGElement {
    const NS = 'http://www.w3.org/2000/svg';
    const W = 320;
    const H = 120;
    const n = Math.max(1, a.total_plies);
    const x = (p: number) => (p / n) * (W - 8) + 4;
    const y = (cp: number) => H / 2 - (Math.max(-2000, Math.min(2000, cp)) / 2000) * (H / 2 - 6);
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'eval-graph');
    svg.setAttribute('id', 'eval-graph');
    const el = (tag: string, attrs: Record<string, string | number>) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      svg.append(e);
      return e;
    };
    el('rect', { x: 0, y: 0, width: W, height: H, class: 'bg' });
    el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' });
    el('line', { x1: x(ply), y1: 0, x2: x(ply), y2: H, class: 'cursor' });
    if (a.evals.length) {
      el('polyline', { points: a.evals.map((e) => `${x(e.ply)},${y(e.score_cp)}`).join(' '), class: 'line' });
    }
    const flagged = new Set(a.mistakes.map((m) => m.ply));
    for (const e of a.evals) {
      const c = el('circle', {
        cx: x(e.ply),
        cy: y(e.score_cp),
        r: flagged.has(e.ply) ? 4 : 3,
        class: `point${flagged.has(e.ply) ? ' flagged' : ''}${e.ply === ply ? ' current' : ''}`,
        'data-ply': e.ply,
      });
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${e.ply}: ${e.mate !== null ? `${t('mateFound')} ${e.mate}` : e.score_cp}`;
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
      this.host.goMain(Math.round(((px - 4) / (W - 8)) * n));
    });
    return svg;
  }
}
