// The puzzles page (`/puzzles`, `/puzzles/<id>`): mate problems and
// best-move positions solved on the board, the defender's replies played by
// the server, ratings, a streak mode, and the daily puzzle's card for the
// start screen (docs/PROTOCOL.md, "Puzzles").

import type { Api } from 'shogiground/api';

import { me } from '../accounts/account';
import { ApiError, request, type LegalMoves } from '../api/api';
import { h, option } from '../dom';
import { groundDests, lastDests } from '../board/ground';
import { t, type MsgKey } from '../i18n/i18n';
import { moveField } from '../board/movefield';
import { defaultNotation, lineMoveText, usiMoveText } from '../board/movetext';
import { boardColumn, playBoard } from '../board/playboard';
import {
  guestBestStreak,
  guestRating,
  kindLabel,
  kindQuery,
  KINDS,
  puzzlePrompt,
  RATING_KEY,
  STREAK_KEY,
  STREAK_START,
  STREAK_STEP,
  whyText,
  type AttemptAnswer,
  type PuzzleRating,
  type PuzzleView,
} from './words';
import type { Screen } from '../screen';
import { boardSfen, handsSfen, replay, type Position } from '../board/shogi';

/** How long the solver's move stays before the reply is shown (ms). */
const REPLY_DELAY = 350;

type Status = 'solving' | 'waiting' | 'solved' | 'wrong' | 'solution';

class PuzzlePage implements Screen {
  private puzzle: PuzzleView | null = null;
  /** The solver's moves and the replies so far. */
  private moves: string[] = [];
  private positions: Position[] = [];
  private legal: LegalMoves | undefined;
  private status: Status = 'solving';
  private feedback = '';
  private error = '';
  /** Whether this is the first try at the puzzle (only it is rated). */
  private firstTry = true;
  private kind = '';
  private streak: number | null = null;
  private seen: string[] = [];
  private myRating: PuzzleRating | null = null;
  private myBest = 0;
  private ratingChange = '';
  private solutionAt = 0;
  private ground: Api | null = null;
  private boardEl = h('div', { class: 'board', id: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private side = h('div', { class: 'side puzzle-side' });
  private timer: number | undefined;
  private alive = true;

  constructor(private root: HTMLElement) {}

  async open(id: string | null): Promise<void> {
    const boardCol = boardColumn(
      { board: this.boardEl, handTop: this.handTop, handBottom: this.handBottom },
      moveField('puzzle-move-input', {
        current: () => {
          const pos = this.positions[this.positions.length - 1];
          if (this.status !== 'solving' || !this.legal || !pos || !this.puzzle) return null;
          const infos = replay(this.puzzle.sfen, this.moves).infos;
          return { pos, legal: this.legal, prevTo: infos[infos.length - 1]?.to };
        },
        play: (usi) => void this.play(usi),
        notation: () => defaultNotation(),
      }),
    );
    this.root.replaceChildren(h('div', { class: 'game puzzles', id: 'puzzles' }, boardCol, this.side));
    this.ground = playBoard(
      {
        board: this.boardEl,
        handTop: this.handTop,
        handBottom: this.handBottom,
        legal: () => this.legal,
        play: (usi) => void this.play(usi),
      },
      { highlight: { lastDests: true, check: true }, animation: { enabled: true, duration: 200 } },
    );
    this.loadMine();
    if (id) await this.load(() => request<PuzzleView>('GET', `/api/puzzles/${encodeURIComponent(id)}`));
    else await this.next();
  }

  destroy(): void {
    this.alive = false;
    window.clearTimeout(this.timer);
    this.ground?.destroy();
  }

  rerender(): void {
    this.render();
  }

  private async loadMine(): Promise<void> {
    if (me()) {
      try {
        const r = await request<{ rating: PuzzleRating; best_streak: number }>('GET', '/api/me/puzzles');
        this.myRating = r.rating;
        this.myBest = r.best_streak;
      } catch {
        this.myRating = null;
      }
    } else {
      this.myRating = guestRating();
      this.myBest = guestBestStreak();
    }
    this.render();
  }

  /** The next puzzle: near the solver's rating, or the streak's next step. */
  private async next(): Promise<void> {
    const q = new URLSearchParams(kindQuery(this.kind));
    if (this.streak !== null) q.set('rating', String(STREAK_START + STREAK_STEP * this.streak));
    else if (!me()) q.set('rating', String(Math.round(guestRating().rating)));
    if (this.seen.length) q.set('exclude', this.seen.slice(-100).join(','));
    await this.load(() => request<PuzzleView>('GET', `/api/puzzles/next?${q}`));
    if (this.puzzle && location.pathname !== `/puzzles/${this.puzzle.id}`)
      history.replaceState(null, '', `/puzzles/${this.puzzle.id}`);
  }

  private async load(get: () => Promise<PuzzleView>): Promise<void> {
    try {
      const p = await get();
      // The served token survives a reload of /puzzles/<id> (the tab's storage).
      const key = `shogi.served.${p.id}`;
      if (p.served) sessionStorage.setItem(key, p.served);
      else p.served = sessionStorage.getItem(key) ?? undefined;
      this.puzzle = p;
      this.error = '';
    } catch (e) {
      this.puzzle = null;
      this.error =
        e instanceof ApiError && e.status === 404 ? t('puzzleNone') : String(e instanceof Error ? e.message : e);
    }
    if (!this.alive) return;
    if (this.puzzle && !this.seen.includes(this.puzzle.id)) this.seen.push(this.puzzle.id);
    this.firstTry = true;
    this.ratingChange = '';
    this.restart();
  }

  /** Back to the puzzle's start (a new try). */
  private restart(): void {
    this.moves = [];
    this.status = 'solving';
    this.feedback = '';
    this.positions = this.puzzle ? replay(this.puzzle.sfen, []).positions : [];
    this.legal = this.puzzle?.legal;
    this.ground?.set({ orientation: this.puzzle?.side_to_move ?? 'sente' });
    this.syncBoard();
    this.render();
  }

  private syncBoard(): void {
    const g = this.ground;
    const pos = this.positions[this.positions.length - 1];
    if (!g || !pos || !this.puzzle) return;
    const solving = this.status === 'solving';
    const { dests, drops } = groundDests(solving ? this.legal : undefined);
    const infos = replay(this.puzzle.sfen, this.moves).infos;
    g.set({
      sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: pos.turn,
      activeColor: solving && this.legal ? pos.turn : undefined,
      lastDests: lastDests(infos[infos.length - 1]),
      movable: { dests },
      droppable: { dests: drops },
    });
  }

  /** The solver played `usi` on the board. */
  private async play(usi: string): Promise<void> {
    const p = this.puzzle;
    if (!p || this.status !== 'solving') return;
    const moves = [...this.moves, usi];
    this.moves = moves;
    this.positions = replay(p.sfen, moves).positions;
    this.status = 'waiting';
    this.syncBoard();
    this.render();
    const body: { moves: string[]; rating?: PuzzleRating; served?: string } = { moves };
    if (!me() && this.firstTry && this.streak === null) body.rating = guestRating();
    if (me() && p.served) body.served = p.served;
    let a: AttemptAnswer;
    try {
      a = await request<AttemptAnswer>('POST', `/api/puzzles/${p.id}/attempt`, JSON.stringify(body), true);
    } catch (e) {
      // Not judged (busy, too many moves a minute): take the move back.
      this.moves = moves.slice(0, -1);
      this.positions = replay(p.sfen, this.moves).positions;
      this.status = 'solving';
      this.feedback = e instanceof Error ? e.message : String(e);
      this.syncBoard();
      this.render();
      return;
    }
    if (!this.alive || this.puzzle !== p) return;
    if (a.result === 'continue' && a.reply) {
      const reply = a.reply;
      this.feedback = t('puzzleGood');
      this.render();
      this.timer = window.setTimeout(() => {
        this.moves = [...moves, reply];
        this.positions = replay(p.sfen, this.moves).positions;
        this.legal = a.legal;
        this.status = 'solving';
        this.syncBoard();
        this.render();
      }, REPLY_DELAY);
      return;
    }
    this.finished(a, moves);
  }

  private finished(a: AttemptAnswer, moves: string[]): void {
    const p = this.puzzle;
    if (!p) return;
    const solved = a.result === 'solved';
    this.status = solved ? 'solved' : 'wrong';
    if (solved) this.feedback = t('puzzleSolved');
    else {
      const line = replay(p.sfen, moves);
      const escapeMove = a.reply
        ? usiMoveText(line.positions[line.positions.length - 1], a.reply, line.infos[line.infos.length - 1]?.to)
        : '';
      this.feedback = `${t('puzzleWrong')}: ${lineMoveText(line.infos, line.infos.length - 1)}. ${whyText(a.why, escapeMove)}`;
    }
    const change = a.rated?.player ?? (a.guest_rating ? { before: guestRating(), after: a.guest_rating } : null);
    if (a.guest_rating) localStorage.setItem(RATING_KEY, JSON.stringify(a.guest_rating));
    if (change) {
      this.myRating = change.after;
      this.ratingChange = `${Math.round(change.before.rating)} → ${Math.round(change.after.rating)}`;
    }
    this.firstTry = false;
    if (this.streak !== null) {
      if (solved) this.streak += 1;
      else this.endStreak();
    }
    this.syncBoard();
    this.render();
  }

  private startStreak(): void {
    this.streak = 0;
    this.seen = [];
    this.next();
  }

  private async endStreak(): Promise<void> {
    const n = this.streak ?? 0;
    this.feedback += ` ${t('puzzleStreakOver').replace('{n}', String(n))}`;
    this.streak = null;
    if (me()) {
      try {
        const r = await request<{ best_streak: number }>(
          'POST',
          '/api/me/puzzles/streak',
          JSON.stringify({ streak: n }),
          true,
        );
        this.myBest = r.best_streak;
      } catch {
        // kept for the next streak
      }
    } else if (n > guestBestStreak()) {
      localStorage.setItem(STREAK_KEY, String(n));
      this.myBest = n;
    }
    this.render();
  }

  private async showSolution(): Promise<void> {
    const p = this.puzzle;
    if (!p) return;
    try {
      const body = me() && p.served ? JSON.stringify({ served: p.served }) : undefined;
      const full = await request<PuzzleView>('POST', `/api/puzzles/${p.id}/give-up`, body, body !== undefined);
      p.solution = full.solution ?? [];
      // An account that gives up before finishing has failed the puzzle: its rating changed.
      if (me() && this.status !== 'solved' && this.status !== 'wrong') this.loadMine();
    } catch (e) {
      this.feedback = e instanceof Error ? e.message : String(e);
      this.render();
      return;
    }
    if (this.streak !== null && this.status !== 'solved') this.endStreak();
    this.firstTry = false;
    this.status = 'solution';
    this.stepSolution(p.solution.length);
  }

  private stepSolution(at: number): void {
    const p = this.puzzle;
    if (!p?.solution) return;
    this.solutionAt = Math.max(0, Math.min(p.solution.length, at));
    this.moves = p.solution.slice(0, this.solutionAt);
    this.positions = replay(p.sfen, this.moves).positions;
    this.syncBoard();
    this.render();
  }

  private render(): void {
    const p = this.puzzle;
    const kinds = h(
      'select',
      { id: 'puzzle-kind', 'aria-label': t('puzzleKind') },
      KINDS.map((k) => option(k, kindLabel(k), this.kind)),
    );
    kinds.addEventListener('change', () => {
      this.kind = kinds.value;
      this.streak = null;
      this.next();
    });
    const button = (id: string, key: MsgKey, f: () => void, disabled = false) => {
      const b = h('button', { type: 'button', id, disabled }, t(key));
      b.addEventListener('click', f);
      return b;
    };
    const parts: (HTMLElement | null)[] = [
      h('h2', {}, t('puzzles')),
      h(
        'div',
        { class: 'puzzle-controls' },
        kinds,
        button('puzzle-streak', 'puzzleStreakStart', () => this.startStreak()),
      ),
    ];
    if (this.error || !p) {
      parts.push(h('p', { class: 'error', id: 'puzzle-error' }, this.error || t('puzzleLoading')));
      this.side.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
      return;
    }
    parts.push(
      h('p', { class: 'puzzle-prompt', id: 'puzzle-prompt' }, puzzlePrompt(p)),
      h(
        'p',
        { class: 'puzzle-ratings' },
        h('span', { id: 'puzzle-rating' }, `${t('puzzleRating')}: ${p.rating}`),
        ' · ',
        h(
          'span',
          { id: 'puzzle-my-rating' },
          `${t('puzzleYourRating')}: ${this.myRating ? Math.round(this.myRating.rating) : '—'}${this.ratingChange ? ` (${this.ratingChange})` : ''}`,
        ),
      ),
    );
    if (this.streak !== null)
      parts.push(h('p', { id: 'puzzle-streak-now' }, t('puzzleStreakNow').replace('{n}', String(this.streak))));
    parts.push(h('p', { class: 'puzzle-best-streak' }, t('puzzleStreakBest').replace('{n}', String(this.myBest))));
    const fb = this.status === 'waiting' ? t('puzzleWaiting') : this.feedback;
    parts.push(
      h(
        'p',
        {
          class: `puzzle-feedback ${this.status}`,
          id: 'puzzle-feedback',
          'data-status': this.status,
          'data-moves': this.moves.length,
          'aria-live': 'polite',
        },
        fb,
      ),
    );
    const done = this.status === 'solved' || this.status === 'wrong' || this.status === 'solution';
    const actions = h('div', { class: 'puzzle-actions' });
    if (this.status === 'wrong' || this.status === 'solution')
      actions.append(button('puzzle-retry', 'puzzleRetry', () => this.restart()));
    if (this.status !== 'solution')
      actions.append(button('puzzle-show', 'puzzleShowSolution', () => this.showSolution(), this.status === 'waiting'));
    if (done || this.streak === null) actions.append(button('puzzle-next', 'puzzleNext', () => this.next()));
    parts.push(actions);
    if (this.status === 'solution' && p.solution) {
      const line = replay(p.sfen, p.solution);
      const list = h(
        'div',
        { class: 'moves puzzle-solution', id: 'puzzle-solution' },
        line.infos.map((_, i) => {
          const b = h(
            'button',
            { type: 'button', class: `move${this.solutionAt === i + 1 ? ' current' : ''}` },
            `${i + 1}. ${lineMoveText(line.infos, i)}`,
          );
          b.addEventListener('click', () => this.stepSolution(i + 1));
          return b;
        }),
      );
      parts.push(h('h3', {}, t('puzzleSolution')), list);
    }
    const link = h('a', { href: '/puzzles', 'data-link': true, id: 'puzzle-daily-link' }, t('puzzleDaily'));
    link.addEventListener('click', (e) => {
      e.preventDefault();
      e.stopPropagation();
      this.openDaily();
    });
    parts.push(h('p', {}, link));
    this.side.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
  }

  private async openDaily(): Promise<void> {
    this.streak = null;
    await this.load(() => request<PuzzleView>('GET', '/api/puzzles/daily'));
    const path = this.puzzle ? `/puzzles/${this.puzzle.id}` : '/puzzles';
    if (location.pathname !== path) history.pushState(null, '', path);
  }
}

/** The puzzles page: puzzle `id`, or the next one near the solver's rating. */
export async function openPuzzles(root: HTMLElement, id: string | null): Promise<Screen> {
  const page = new PuzzlePage(root);
  await page.open(id);
  return page;
}

/** The daily puzzle's card on the start screen: what it asks and a link to it. */
export function renderDailyPuzzle(el: HTMLElement): void {
  el.replaceChildren();
  request<PuzzleView>('GET', '/api/puzzles/daily')
    .then((p) => {
      el.replaceChildren(
        h(
          'a',
          { href: `/puzzles/${p.id}`, 'data-link': true, class: 'daily-puzzle', id: 'daily-puzzle' },
          h('strong', {}, t('puzzleDaily')),
          h('span', {}, puzzlePrompt(p)),
          h('span', { class: 'daily-rating' }, `${t('puzzleRating')}: ${p.rating}`),
        ),
      );
    })
    .catch(() => el.replaceChildren());
}
