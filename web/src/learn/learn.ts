// The learn pages: the course list at `/learn` (each lesson with its
// progress) and a lesson at `/learn/<id>`: its text and its exercises on the
// real board. Every move goes to the server's rules (POST /api/play); the
// answer is judged against the exercise's goal (lessons.ts) and a mistake is
// explained in words: the rule that refuses the move (rules/refusal.ts), "not the
// fewest moves", "that does not give check", ...

import type { Api } from 'shogiground/api';
import type * as sg from 'shogiground/types';

import { legalMoves, request, type LegalMoves } from '../api/api';
import { h } from '../dom';
import { lang, t, type MsgKey } from '../i18n/i18n';
import { couldTry, matchMove } from '../board/keyboard';
import { defaultNotation } from '../board/movetext';
import { ExplorerPanel } from '../explorer/panel';
import { isDone, lessonDone, markDone, syncProgress } from './progress';
import {
  judge,
  LESSONS,
  lessonById,
  targets,
  type Exercise,
  type Lesson,
  type PlayAnswer,
  type Run,
  type Texts,
} from './lessons';
import { renderNotFound } from '../screen';
import { boardColumn, playBoard } from '../board/playboard';
import { rankLabelsSelect } from '../board/ranklabels';
import { ruleText } from '../rules/refusal';
import type { Screen } from '../screen';
import { boardSfen, canReach, handsSfen, HAND_ROLES, parseSfen } from '../board/shogi';

/** A text in the reader's language. */
function tr(x: Texts): string {
  return x[lang()] ?? x.en;
}

/** The course list with each lesson's progress, and the coordinates trainer. */
export function renderLearn(root: HTMLElement): Screen {
  const draw = () => {
    const items = LESSONS.map((l, i) => {
      const done = lessonDone(l);
      const total = l.exercises.length;
      const state = done === total ? 'done' : done > 0 ? 'started' : 'new';
      return h(
        'li',
        { class: `lesson-item ${state}`, 'data-lesson': l.id },
        h('a', { href: `/learn/${l.id}`, 'data-link': true }, `${i + 1}. ${tr(l.title)}`),
        h(
          'span',
          { class: 'lesson-progress', 'aria-label': t('learnProgress') },
          done === total ? '✓' : `${done}/${total}`,
        ),
      );
    });
    root.replaceChildren(
      h(
        'div',
        { class: 'learn', id: 'learn' },
        h('h2', {}, t('learnTitle')),
        h('p', {}, t('learnIntro')),
        h(
          'p',
          {},
          h(
            'a',
            { href: '/learn/coordinates', 'data-link': true, id: 'link-coords', class: 'button-link' },
            t('coordsTitle'),
          ),
        ),
        h('ol', { class: 'lesson-list', id: 'lesson-list' }, items),
      ),
    );
  };
  draw();
  syncProgress().then(draw);
  return { destroy: () => {}, rerender: draw };
}

/** A lesson's page, or "no such page" for an unknown id. */
export function openLesson(root: HTMLElement, id: string): Screen {
  const lesson = lessonById(id);
  if (!lesson) return renderNotFound(root, 'page');
  return new LessonScreen(root, lesson);
}

class LessonScreen implements Screen {
  private boardEl = h('div', { class: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private side = h('div', { class: 'side learn-side' });
  private head = h('div', { class: 'learn-head' });
  private text = h('div', { class: 'learn-text' });
  private exercise = h('div', { class: 'learn-exercise' });
  /** The games through the exercise's position (shown, not played: the board is the exercise's). */
  private explorer = new ExplorerPanel({ notation: defaultNotation });
  private ground: Api;
  private index: number;
  private sfen = '';
  private legal: LegalMoves | null = null;
  private run: Run = { moves: 0, reached: new Set() };
  private solved = false;
  private busy = false;
  private feedback: { text: string; kind: 'good' | 'bad' } | null = null;

  constructor(
    root: HTMLElement,
    private lesson: Lesson,
  ) {
    const first = lesson.exercises.findIndex((e) => !isDone(e.id));
    this.index = Math.max(first, 0);
    const boardCol = boardColumn({ board: this.boardEl, handTop: this.handTop, handBottom: this.handBottom });
    root.replaceChildren(
      h(
        'div',
        { class: 'learn-lesson', id: 'lesson', 'data-lesson': lesson.id },
        this.head,
        h('div', { class: 'game learn-board' }, boardCol, this.side),
      ),
    );
    this.ground = this.makeBoard();
    this.start();
  }

  private makeBoard(): Api {
    return playBoard(
      {
        board: this.boardEl,
        handTop: this.handTop,
        handBottom: this.handBottom,
        legal: () => this.legal ?? undefined,
        play: (usi) => this.play(usi),
        // Before the lesson on promotion a move into the zone is simply played, not a question.
        promotionChoice: () => LESSONS.indexOf(this.lesson) >= LESSONS.findIndex((l) => l.id === 'promotion'),
      },
      {
        turnColor: 'sente',
        activeColor: 'sente',
        highlight: { lastDests: true, check: true },
        drawable: { enabled: false, visible: true },
      },
    );
  }

  /** The board made again with the rank labels the reader just chose. */
  private relabel(): void {
    this.ground.destroy();
    this.ground = this.makeBoard();
    this.syncBoard();
  }

  destroy(): void {
    this.explorer.destroy();
    this.ground.destroy();
  }

  rerender(): void {
    this.render();
  }

  private get ex(): Exercise {
    return this.lesson.exercises[this.index];
  }

  /** The exercise from its start position. */
  private start(): void {
    this.sfen = this.ex.sfen;
    this.run = { moves: 0, reached: new Set() };
    this.solved = false;
    this.legal = null;
    this.render();
    this.fetchLegal();
  }

  private async fetchLegal(): Promise<void> {
    const sfen = this.sfen;
    try {
      const l = await legalMoves(sfen, true);
      if (sfen === this.sfen) {
        this.legal = l;
        this.syncBoard();
      }
    } catch (e) {
      this.say(e instanceof Error ? e.message : String(e), 'bad');
    }
  }

  /** Board moves the pieces could make (refused ones too, so the rules can say why) and drops on every empty square. */
  private dests(): { dests: Map<sg.Key, sg.Key[]>; drops: Map<sg.PieceName, sg.Key[]> } {
    const dests = new Map<sg.Key, sg.Key[]>();
    const drops = new Map<sg.PieceName, sg.Key[]>();
    if (!this.legal || this.solved || this.ex.kind === 'quiz') return { dests, drops };
    const pos = parseSfen(this.sfen);
    const all: string[] = [];
    for (let f = 1; f <= 9; f++) for (const r of 'abcdefghi') all.push(`${f}${r}`);
    for (const [from, piece] of pos.board) {
      if (piece.color !== 'sente') continue;
      const tos = all.filter((to) => canReach(pos, from, to));
      if (tos.length) dests.set(from as sg.Key, tos as sg.Key[]);
    }
    const empty = all.filter((k) => !pos.board.has(k));
    for (const role of HAND_ROLES) if (pos.hands.sente[role] > 0) drops.set(`sente ${role}`, empty as sg.Key[]);
    return { dests, drops };
  }

  private syncBoard(): void {
    const pos = parseSfen(this.sfen);
    const { dests, drops } = this.dests();
    const live = !this.solved && this.ex.kind !== 'quiz';
    this.ground.set({
      sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: 'sente',
      activeColor: live ? 'sente' : undefined,
      movable: { dests },
      droppable: { dests: drops },
    });
    const left =
      this.ex.kind === 'reach' ? targets(this.ex).filter((k) => !this.run.reached.has(k)) : (this.ex.stars ?? []);
    const stars = this.ex.kind === 'capture' ? [] : left;
    this.ground.setSquareHighlights(stars.map((key) => ({ key: key as sg.Key, className: 'star' })));
    // For tests and assistive tools: whether the board takes a move now.
    this.side.dataset.ready = this.legal && live && !this.busy ? 'yes' : 'no';
    this.explorer.show(this.sfen);
  }

  private say(text: string, kind: 'good' | 'bad'): void {
    this.feedback = { text, kind };
    this.renderSide();
  }

  /** Sends the player's move to the rules and judges the answer. */
  private async play(usi: string): Promise<void> {
    try {
      await this.judgeMove(usi);
    } finally {
      // For tests: one more move handled (the board's callback runs a moment
      // after the click, so "ready" alone cannot tell a move was taken).
      this.side.dataset.plays = String(Number(this.side.dataset.plays ?? '0') + 1);
    }
  }

  private async judgeMove(usi: string): Promise<void> {
    if (this.busy || this.solved) return;
    this.busy = true;
    this.side.dataset.ready = 'no';
    const ex = this.ex;
    const sfen = this.sfen;
    let answer: PlayAnswer;
    try {
      answer = await request<PlayAnswer>('POST', '/api/play', JSON.stringify({ sfen, move: usi }), true);
    } catch (e) {
      this.busy = false;
      this.say(e instanceof Error ? e.message : String(e), 'bad');
      this.syncBoard();
      return;
    }
    this.busy = false;
    if (ex !== this.ex || sfen !== this.sfen) return;
    const v = judge(ex, usi, answer, this.run);
    switch (v.kind) {
      case 'solved':
        if (answer.legal) this.sfen = answer.sfen;
        this.solved = true;
        this.feedback = {
          text: answer.legal
            ? t('learnSolved')
            : `${t('learnSolved')} ${ruleText(answer.rule, answer.file) ?? answer.rule}`,
          kind: 'good',
        };
        await markDone(ex.id);
        this.render();
        break;
      case 'step':
        this.sfen = v.sfen;
        this.legal = null;
        this.feedback = null;
        this.render();
        this.fetchLegal();
        break;
      case 'refused':
        this.say(ruleText(v.rule, v.file) ?? v.rule, 'bad');
        this.syncBoard();
        break;
      case 'miss': {
        const why = v.miss === 'wrong_choice' && ex.why ? ` ${tr(ex.why)}` : '';
        const text = t(`learn_${v.miss}` as MsgKey) + why;
        this.start();
        this.say(text, 'bad');
        break;
      }
    }
  }

  private goTo(i: number): void {
    this.index = i;
    this.feedback = null;
    this.start();
  }

  private render(): void {
    const l = this.lesson;
    const n = LESSONS.indexOf(l);
    this.head.replaceChildren(
      h(
        'nav',
        { class: 'learn-nav' },
        h('a', { href: '/learn', 'data-link': true, id: 'back-to-course' }, `← ${t('learnTitle')}`),
      ),
      h('h2', { id: 'lesson-title' }, `${n + 1}. ${tr(l.title)}`),
    );
    this.text.replaceChildren(...l.text[lang()].map((p) => h('p', {}, p)));
    const ranks = h(
      'label',
      { class: 'field learn-ranks' },
      h('span', {}, t('rankLabels')),
      rankLabelsSelect(() => this.relabel()),
    );
    this.explorer.render();
    this.side.replaceChildren(this.text, this.exercise, ranks, this.explorer.el);
    this.renderSide();
    this.syncBoard();
  }

  private renderSide(): void {
    const l = this.lesson;
    const ex = this.ex;
    const steps = h(
      'ol',
      { class: 'exercise-steps', 'aria-label': t('learnExercises') },
      l.exercises.map((e, i) => {
        const b = h(
          'button',
          {
            type: 'button',
            class: `step${i === this.index ? ' current' : ''}${isDone(e.id) ? ' done' : ''}`,
            'data-exercise': e.id,
            'aria-current': i === this.index ? 'step' : undefined,
          },
          `${i + 1}${isDone(e.id) ? ' ✓' : ''}`,
        );
        b.addEventListener('click', () => this.goTo(i));
        return h('li', {}, b);
      }),
    );
    const parts: (HTMLElement | null)[] = [
      steps,
      h('p', { class: 'exercise-goal', id: 'exercise-goal', 'data-kind': ex.kind }, tr(ex.goal)),
    ];
    if (ex.kind === 'reach' || ex.kind === 'capture') {
      parts.push(
        h(
          'p',
          { id: 'exercise-count' },
          t('learnMoves').replace('{n}', String(this.run.moves)).replace('{min}', String(ex.solution.length)),
        ),
      );
    }
    if (ex.kind === 'quiz' && ex.choices) {
      const choices = h(
        'div',
        { class: 'quiz-choices', id: 'quiz-choices', role: 'group' },
        ex.choices.map((c, i) => {
          const b = h('button', { type: 'button', 'data-value': c.value, disabled: this.solved }, tr(c.text));
          b.addEventListener('click', () => this.answer(i));
          return b;
        }),
      );
      parts.push(choices);
    }
    if (this.feedback) {
      parts.push(
        h(
          'p',
          { class: `learn-feedback ${this.feedback.kind}`, id: 'lesson-feedback', role: 'status' },
          this.feedback.text,
        ),
      );
    }
    if (ex.kind !== 'quiz' && !this.solved) parts.push(this.moveInput());
    const buttons = h('div', { class: 'learn-buttons' });
    if (ex.kind !== 'quiz') {
      const again = h('button', { type: 'button', id: 'exercise-reset' }, t('learnAgain'));
      again.addEventListener('click', () => {
        this.feedback = null;
        this.start();
      });
      buttons.append(again);
    }
    if (this.solved) {
      if (this.index + 1 < l.exercises.length) {
        const next = h('button', { type: 'button', id: 'exercise-next', class: 'primary' }, t('learnNext'));
        next.addEventListener('click', () => this.goTo(this.index + 1));
        buttons.append(next);
      } else {
        const after = LESSONS[LESSONS.indexOf(l) + 1];
        const next = after
          ? h(
              'a',
              { href: `/learn/${after.id}`, 'data-link': true, id: 'lesson-next', class: 'button-link' },
              `${t('learnNextLesson')}: ${tr(after.title)}`,
            )
          : h(
              'a',
              { href: '/learn', 'data-link': true, id: 'lesson-next', class: 'button-link' },
              t('learnCourseDone'),
            );
        buttons.append(next);
      }
    }
    parts.push(buttons);
    this.exercise.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    if (this.solved) this.exercise.querySelector<HTMLElement>('#exercise-next, #lesson-next')?.focus();
  }

  /** A typed move (USI or any notation the game screen reads) for players without a mouse. */
  private moveInput(): HTMLElement {
    const input = h('input', {
      type: 'text',
      id: 'learn-move-input',
      autocomplete: 'off',
      'aria-label': t('learnTypeMove'),
      placeholder: t('learnTypeMove'),
    });
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const text = input.value.trim();
      const pos = parseSfen(this.sfen);
      const found = this.legal ? matchMove(text, this.legal, pos) : [];
      if (found.length === 1) this.play(found[0].usi);
      else if (/^([1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])$/.test(text) && couldTry(pos, text)) this.play(text);
      else this.say(t('moveUnknown').replace('{text}', text), 'bad');
    });
    return h('label', { class: 'learn-move' }, input);
  }

  private async answer(i: number): Promise<void> {
    const ex = this.ex;
    if (i === ex.answer) {
      this.solved = true;
      this.feedback = { text: t('learnSolved'), kind: 'good' };
      await markDone(ex.id);
      this.render();
    } else {
      this.say(t('learnQuizWrong'), 'bad');
    }
  }
}
