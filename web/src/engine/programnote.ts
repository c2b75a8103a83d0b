// A program's evaluation and expected line beside the board, on the game page
// and the review of a game programs played (docs/PROTOCOL.md, "Programs'
// notes"): for the move shown, which program made it, its evaluation in the
// site's one format (engine/score.ts) and its line in the reader's notation.
// What a program wrote reaches the page as text only, never as HTML.

import type { ProgramNote, Side } from '../api/api';
import { moveText } from '../board/movetext';
import type { Notation } from '../board/notation';
import { applyUsi, type Key, type Position } from '../board/shogi';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { mateText, scoreText } from './score';

/** The note of move `ply`, if it has one. */
export function noteAt(notes: ProgramNote[] | undefined, ply: number): ProgramNote | undefined {
  return ply > 0 ? notes?.find((n) => n.ply === ply) : undefined;
}

/** A note's evaluation in the site's one format: `+0.35`, `☖ #7`, `☗ #?`. */
export function noteScoreText(note: ProgramNote): string {
  if (note.mate) return mateText(note.mate.winner, note.mate.plies);
  return scoreText(note.score ?? 0);
}

/**
 * The note's line in `notation`, played from `after` (the position after the
 * move, which went to `prevTo`): `△３四歩 ▲２六歩` in Japanese (the marks say
 * who moves), numbered by ply in the others (`2. P-3d 3. P-2f`). A move the
 * board cannot play ends the line.
 */
export function noteLineText(note: ProgramNote, after: Position, prevTo: Key | undefined, notation: Notation): string {
  const words: string[] = [];
  let pos = after;
  let prev = prevTo;
  for (const usi of note.pv) {
    const r = applyUsi(pos, usi);
    if (!r) break;
    const text = moveText(r.info, prev, notation);
    words.push(notation === 'japanese' ? text : `${note.ply + words.length + 1}. ${text}`);
    pos = r.pos;
    prev = r.info.to;
  }
  return words.join(notation === 'japanese' ? '' : ' ');
}

/** Who made move `ply`: `☗ alpha — after move 3` (the mark of `mover`, the name, the move's number). */
export function noteWhoText(mover: Side, name: string, ply: number): string {
  const mark = mover === 'sente' ? '☗' : '☖';
  return `${mark} ${name} — ${t('programAfterMove').replace('{n}', String(ply))}`;
}

/** What the panel needs to know of the move shown. */
export interface NoteShown {
  /** The notes of the game (main line). */
  notes: ProgramNote[] | undefined;
  /** The move shown (0: the start); `null`: a position off the game's line. */
  ply: number | null;
  /** The position after it, and the square the move went to. */
  after: Position;
  prevTo: Key | undefined;
  /** Who made it (`null` at the start), and that side's name as shown. */
  mover: Side | null;
  name: string;
  notation: Notation;
}

/** The panel "Program's evaluation" for the move shown. */
export function programNotePanel(shown: NoteShown): HTMLElement {
  const note = shown.ply === null ? undefined : noteAt(shown.notes, shown.ply);
  const body: HTMLElement[] = [];
  if (note && shown.mover) {
    const line = noteLineText(note, shown.after, shown.prevTo, shown.notation);
    body.push(
      h('p', { class: 'program-note-who', id: 'program-note-who' }, noteWhoText(shown.mover, shown.name, note.ply)),
      h('p', { class: 'program-note-score', id: 'program-note-score' }, noteScoreText(note)),
      h(
        'p',
        { class: 'program-note-line', id: 'program-note-line' },
        h('span', { class: 'label' }, `${t('programLine')}: `),
        line || '—',
      ),
    );
  } else {
    body.push(h('p', { class: 'hint', id: 'program-note-none' }, t('programNoNote')));
  }
  return h('section', { class: 'program-note', id: 'program-note' }, h('h2', {}, t('programEval')), ...body);
}
