// A typed move for players without a mouse, for the boards outside a game
// (the puzzles, the analysis board): one text field matched against the
// legal moves of the shown position in every notation the game screen reads
// (board/keyboard.ts: USI `7g7f`, Western `P-76`, Russian `7g-7f`, Japanese
// `７六歩`); several matches are offered as buttons to pick from.

import { h } from '../dom';
import { t } from '../i18n/i18n';
import type { LegalMoves } from '../api/api';
import { matchMove } from './keyboard';
import { moveText } from './movetext';
import type { Notation } from './notation';
import type { Key, Position } from './shogi';

/** What the field needs of its board. */
export interface MoveFieldBoard {
  /** The shown position and its legal moves, or null when no move may be played now. */
  current(): { pos: Position; legal: LegalMoves; prevTo?: Key } | null;
  /** Plays a move the text named. */
  play(usi: string): void;
  /** The notation the choices are written in. */
  notation(): Notation;
}

/** The field (`id` for its input) with its label and the note under it. */
export function moveField(id: string, board: MoveFieldBoard): HTMLElement {
  const note = h('div', { class: 'move-field-note', role: 'status' });
  const input = h('input', {
    type: 'text',
    id,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: t('typeMoveHint'),
  });
  const done = (usi: string) => {
    input.value = '';
    note.replaceChildren();
    board.play(usi);
  };
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const now = board.current();
    const found = now ? matchMove(text, now.legal, now.pos, now.prevTo) : [];
    if (found.length === 1) done(found[0].usi);
    else if (found.length === 0) note.replaceChildren(h('span', {}, t('moveUnknown').replace('{text}', text)));
    else
      note.replaceChildren(
        h('span', {}, t('moveAmbiguous').replace('{text}', text)),
        h(
          'span',
          { class: 'choices' },
          found.map((c) =>
            h(
              'button',
              { type: 'button', class: 'choice', 'data-usi': c.usi, onclick: () => done(c.usi) },
              moveText(c.info, now?.prevTo, board.notation()),
            ),
          ),
        ),
      );
  });
  return h('div', { class: 'move-field' }, h('label', { class: 'field', for: id }, t('typeMove')), input, note);
}
