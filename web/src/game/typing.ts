// Keyboard play on the game screen: the field under the board for a typed
// move (played when it names exactly one legal move; several are offered to
// pick from), "Describe the position", and the screen reader's live region
// that says each new move.

import type { Notation } from '../board/notation';
import { describePosition, matchMove } from '../board/keyboard';
import { lineMoveText, moveText } from '../board/movetext';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { button } from './controls';
import type { ClientMessage } from './socket';
import type { LiveGame } from './state';

/** What the typed-move field asks of the screen. */
export interface TypingHost {
  readonly game: LiveGame;
  notation(): Notation;
  /** Shows `ply` (null: the live position). */
  setView(ply: number | null): void;
  send(msg: ClientMessage): void;
}

export class TypedMoves {
  readonly panel = h('form', { class: 'type-move', id: 'type-move' });
  private note = h('div', { class: 'type-note', id: 'type-note', role: 'status' });
  /** The screen reader's words: moves as they come, the position on request. */
  readonly live = h('div', { class: 'visually-hidden', id: 'live', 'aria-live': 'polite' });

  constructor(private host: TypingHost) {
    this.panel.addEventListener('submit', (e) => {
      e.preventDefault();
      const input = this.panel.querySelector<HTMLInputElement>('#move-input');
      if (input) this.onTyped(input);
    });
  }

  /** Draws the field, and names the board for the screen reader. */
  render(boardEl: HTMLElement): void {
    const input = h('input', {
      type: 'text',
      id: 'move-input',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: t('typeMoveHint'),
    });
    const describe = button(t('describePosition'), 'describe', () => {
      const game = this.host.game;
      const pos = game.positions[game.viewPly ?? game.positions.length - 1];
      if (pos) this.live.textContent = describePosition(pos);
    });
    this.panel.replaceChildren(
      h('label', { class: 'field', for: 'move-input' }, t('typeMove')),
      h('div', { class: 'row' }, input, h('button', { type: 'submit', id: 'play-typed' }, t('playTyped')), describe),
      this.note,
    );
    boardEl.setAttribute('role', 'region');
    boardEl.setAttribute('aria-label', t('boardLabel'));
  }

  /**
   * The moves changed from `before` moves: the note goes, and the screen
   * reader hears the move played or, after a takeback, where the game now
   * stands (when the move list is known: `known`).
   */
  moved(before: number, known: boolean): void {
    this.note.replaceChildren();
    const infos = this.host.game.infos;
    const n = infos.length;
    if (!known || n === before) return;
    const last = () => lineMoveText(infos, n - 1, this.host.notation());
    if (n > before) {
      this.live.textContent = t('lastMoveSaid').replace('{n}', String(n)).replace('{move}', last());
    } else {
      this.live.textContent =
        n === 0 ? t('takenBackToStartSaid') : t('takenBackSaid').replace('{n}', String(n)).replace('{move}', last());
    }
  }

  /** A typed move: played when it names exactly one legal move; several are offered to pick from. */
  private onTyped(input: HTMLInputElement): void {
    const game = this.host.game;
    const s = game.st;
    const text = input.value.trim();
    if (!text) return;
    const note = (msg: string, ...rest: HTMLElement[]) => this.note.replaceChildren(h('span', {}, msg), ...rest);
    if (!s || !game.canAct()) {
      note(t('notYourTurn'));
      return;
    }
    this.host.setView(null);
    const pos = game.positions[game.positions.length - 1];
    const prevTo = game.infos[game.infos.length - 1]?.to;
    const found = matchMove(text, s, pos, prevTo);
    if (found.length === 1) {
      input.value = '';
      this.note.replaceChildren();
      this.host.send({ type: 'move', usi: found[0].usi });
    } else if (found.length === 0) {
      note(t('moveUnknown').replace('{text}', text));
    } else {
      note(
        t('moveAmbiguous').replace('{text}', text),
        h(
          'span',
          { class: 'choices' },
          found.map((c) =>
            h(
              'button',
              {
                type: 'button',
                class: 'choice',
                'data-usi': c.usi,
                onclick: () => {
                  input.value = '';
                  this.note.replaceChildren();
                  this.host.send({ type: 'move', usi: c.usi });
                },
              },
              moveText(c.info, prevTo, this.host.notation()),
            ),
          ),
        ),
      );
    }
  }
}
