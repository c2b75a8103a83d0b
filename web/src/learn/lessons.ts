// The course of the learn pages as data (src/lessons/lessons.json, described
// in docs/LEARN.md), its types, and the judging of a move in an exercise:
// what the player's move did (the server's answer to POST /api/play) against
// the exercise's goal. No DOM here, so the unit tests run it in node.

import data from './lessons/lessons.json';
import type { LegalMoves } from '../api/api';
import type { Lang } from '../i18n/i18n';

/** A text in each language. */
export type Texts = Record<Lang, string>;

/** The kinds of exercise (docs/LEARN.md). */
export type ExerciseKind = 'reach' | 'capture' | 'drop' | 'illegal' | 'promote' | 'check' | 'mate1' | 'escape' | 'quiz';

/** A quiz's choice: the value the tests check against the rules core, and its text. */
export interface Choice {
  value: string;
  text: Texts;
}

/** One exercise on the board. */
export interface Exercise {
  id: string;
  kind: ExerciseKind;
  /** The position; Sente (the player) to move. Kings may be missing. */
  sfen: string;
  goal: Texts;
  /** Moves that solve it (USI); for reach and capture, the fewest. */
  solution: string[];
  /** Marked squares: to visit (reach), to drop on (drop, illegal). */
  stars?: string[];
  /** The rule that refuses the drop (illegal). */
  rule?: string;
  /** What the right promotion choice achieves (promote). */
  after?: 'check' | 'mate';
  /** Why the other promotion choice is wrong (promote). */
  why?: Texts;
  choices?: Choice[];
  answer?: number;
}

/** A lesson: a few paragraphs and its exercises. */
export interface Lesson {
  id: string;
  title: Texts;
  text: Record<Lang, string[]>;
  exercises: Exercise[];
}

/** The course, in order. */
export const LESSONS: Lesson[] = (data as { lessons: Lesson[] }).lessons;

/** The lesson `id`, if there is one. */
export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** What the server said of a move (POST /api/play). */
export type PlayAnswer =
  | { legal: true; sfen: string; in_check: boolean; checkmate: boolean; legal_moves: LegalMoves }
  | { legal: false; rule: string; square: string; file?: number; move: string };

/** Why a move did not solve the exercise (each worded in i18n as `learn_<reason>`). */
export type Miss =
  | 'not_fewest'
  | 'no_check'
  | 'check_not_mate'
  | 'no_mate'
  | 'wrong_choice'
  | 'not_asked'
  | 'off_star'
  | 'was_legal';

/** The judgement of one move. */
export type Verdict =
  | { kind: 'solved' }
  /** A step of a reach or capture run: the position to go on from (Sente to move again). */
  | { kind: 'step'; sfen: string }
  | { kind: 'miss'; miss: Miss }
  /** The rules refuse it: say which rule, and stay. */
  | { kind: 'refused'; rule: string; square: string; file?: number };

/** A reach or capture run in progress: the moves made and the targets reached. */
export interface Run {
  moves: number;
  reached: Set<string>;
}

/** The targets of a reach (its stars) or capture exercise (every Gote piece of the start). */
export function targets(ex: Exercise): string[] {
  if (ex.kind === 'reach') return ex.stars ?? [];
  if (ex.kind !== 'capture') return [];
  const board = ex.sfen.split(' ')[0];
  const out: string[] = [];
  board.split('/').forEach((row, r) => {
    let file = 9;
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (/\d/.test(c)) file -= Number(c);
      else if (c === '+') continue;
      else {
        if (c >= 'a' && c <= 'z') out.push(`${file}${'abcdefghi'[r]}`);
        file--;
      }
    }
  });
  return out;
}

/** The same position with Sente to move again (the opponent passes). */
export function passBack(sfen: string): string {
  const parts = sfen.split(' ');
  parts[1] = 'b';
  return parts.join(' ');
}

/** The destination square of a USI move. */
export function moveTo(usi: string): string {
  const m = usi.match(/([1-9][a-i])\+?$/);
  return m ? m[1] : '';
}

/** Judges the move `usi` the server answered with `answer`; `run` is updated for reach and capture. */
export function judge(ex: Exercise, usi: string, answer: PlayAnswer, run: Run): Verdict {
  const to = moveTo(usi);
  const onStar = (ex.stars ?? []).includes(to);
  if (!answer.legal) {
    if (ex.kind === 'illegal' && onStar && answer.rule === ex.rule) return { kind: 'solved' };
    return { kind: 'refused', rule: answer.rule, square: answer.square, file: answer.file };
  }
  switch (ex.kind) {
    case 'reach':
    case 'capture': {
      run.moves++;
      const all = targets(ex);
      if (all.includes(to)) run.reached.add(to);
      if (all.every((t) => run.reached.has(t))) return { kind: 'solved' };
      if (run.moves >= ex.solution.length) return { kind: 'miss', miss: 'not_fewest' };
      return { kind: 'step', sfen: passBack(answer.sfen) };
    }
    case 'drop':
      return usi.includes('*') && onStar ? { kind: 'solved' } : { kind: 'miss', miss: 'off_star' };
    case 'illegal':
      return { kind: 'miss', miss: 'was_legal' };
    case 'promote': {
      const want = ex.solution[0];
      if (usi === want) return { kind: 'solved' };
      return { kind: 'miss', miss: usi.replace('+', '') === want.replace('+', '') ? 'wrong_choice' : 'not_asked' };
    }
    case 'check':
      return answer.in_check ? { kind: 'solved' } : { kind: 'miss', miss: 'no_check' };
    case 'mate1':
      if (answer.checkmate) return { kind: 'solved' };
      return { kind: 'miss', miss: answer.in_check ? 'check_not_mate' : 'no_mate' };
    case 'escape':
      return { kind: 'solved' };
    case 'quiz':
      return { kind: 'miss', miss: 'not_asked' };
  }
}

// ---- the coordinates trainer's names of squares ----

/** How the trainer names a square. */
export type CoordStyle = 'usi' | 'japanese' | 'numeric';
export const COORD_STYLES: CoordStyle[] = ['usi', 'japanese', 'numeric'];

const FULLWIDTH = '０１２３４５６７８９';
const KANJI = '〇一二三四五六七八九';

/** The name of square `key` (`7f`) in `style`: `7f`, `７六` or `76`. */
export function squareName(key: string, style: CoordStyle): string {
  const file = Number(key[0]);
  const rank = 'abcdefghi'.indexOf(key[1]) + 1;
  switch (style) {
    case 'usi':
      return key;
    case 'japanese':
      return FULLWIDTH[file] + KANJI[rank];
    case 'numeric':
      return `${file}${rank}`;
  }
}

/** A random square other than `not` (`random` gives numbers in [0, 1)). */
export function randomSquare(random: () => number, not?: string): string {
  for (;;) {
    const i = Math.min(80, Math.floor(random() * 81));
    const k = `${9 - (i % 9)}${'abcdefghi'[Math.floor(i / 9)]}`;
    if (k !== not) return k;
  }
}

/** The square under a point of the board element, seen from `orientation`. */
export function squareAt(
  x: number,
  y: number,
  width: number,
  height: number,
  orientation: 'sente' | 'gote',
): string | null {
  const col = Math.floor((x / width) * 9);
  const row = Math.floor((y / height) * 9);
  if (col < 0 || col > 8 || row < 0 || row > 8) return null;
  const file = orientation === 'sente' ? 9 - col : col + 1;
  const rank = orientation === 'sente' ? row : 8 - row;
  return `${file}${'abcdefghi'[rank]}`;
}
