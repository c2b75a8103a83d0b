// The game screen: opening a game (taking the invite's seat, the invitee's
// "your name" screen first), and the Screen that wires its parts together:
// the state (state.ts), the socket (socket.ts), the board (board.ts), the
// clocks (clocks.ts), keyboard play (typing.ts), the preferences (prefs.ts)
// and the drawing around the board (view.ts).

import { guestNameToSend, me, recheckMe } from '../accounts/account';
import { guestNameField } from '../accounts/accountbar';
import { ApiError, type GameState, getGame, joinGame, savedToken, saveToken } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { ruleText } from '../rules/refusal';
import { renderNotFound, type Screen } from '../screen';
import { GameBoard } from './board';
import { GameClocks } from './clocks';
import { applyPrefsClasses, loadPrefs, type PrefChange } from './prefs';
import { type ClientMessage, GameSocket } from './socket';
import { LiveGame } from './state';
import { TypedMoves } from './typing';
import { GameView } from './view';

/** Opens the game `id` (taking a seat with the invite `join`, if given), or says it does not exist. */
export async function openGame(root: HTMLElement, id: string, join: string | null): Promise<Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, t('connecting')));
  let token = savedToken(id);
  let joinError = '';
  let seatTaken = false;
  let state: GameState | null = null;
  try {
    state = await getGame(id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return renderNotFound(root, 'game');
  }
  if (join && !token) {
    if (state?.seats.sente && state.seats.gote) {
      // The invite was used already (by someone else, or in another browser).
      seatTaken = true;
    } else {
      // A guest says under what name they play first; an account's seat takes its name.
      if (!me()) await joinScreen(root);
      try {
        const joined = await joinGame(id, join, guestNameToSend());
        token = joined.token;
        saveToken(id, token);
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) seatTaken = true;
        else joinError = `${t('joinFailed')}: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
  }
  if (join) history.replaceState(null, '', `/g/${id}`);
  return new Game(root, id, token, joinError, seatTaken);
}

/** The invitee's screen before taking the seat: an optional name, then "Take the seat". */
function joinScreen(root: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    const form = h(
      'form',
      { class: 'start join-form', id: 'join-form' },
      h('h1', {}, t('invitedTitle')),
      guestNameField('join-name'),
      h('button', { type: 'submit', class: 'primary', id: 'join-seat' }, t('takeSeat')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      root.replaceChildren(h('p', { class: 'loading' }, t('connecting')));
      resolve();
    });
    root.replaceChildren(form);
  });
}

/** The game screen of one game, fed by the game's WebSocket. */
class Game implements Screen {
  readonly game = new LiveGame();
  readonly prefs = loadPrefs();
  readonly board: GameBoard;
  readonly clocks: GameClocks;
  private typing: TypedMoves;
  private view: GameView;
  private socket: GameSocket | null = null;
  message = '';
  connected = false;
  /** The socket closed since it last opened: on reopening, the session is checked again. */
  private dropped = false;
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(
    root: HTMLElement,
    readonly id: string,
    token: string | null,
    joinError: string,
    readonly seatTaken = false,
  ) {
    this.message = joinError;
    this.board = new GameBoard(this.game, (msg) => this.send(msg));
    this.clocks = new GameClocks(this.board.col, this.game);
    this.typing = new TypedMoves({
      game: this.game,
      notation: () => this.prefs.notation,
      setView: (ply) => this.setView(ply),
      send: (msg) => this.send(msg),
    });
    this.view = new GameView(this);
    this.board.col.append(this.typing.panel, this.typing.live);
    this.typing.render(this.board.el);
    root.replaceChildren(h('div', { class: 'game' }, this.board.col, this.view.side));
    applyPrefsClasses(this.board.col, this.prefs);
    this.view.renderSide();
    this.socket = new GameSocket(id, token, {
      onState: (s) => this.onState(s),
      onError: (m, refusal) => {
        const why = refusal ? ruleText(refusal.rule, refusal.file) : null;
        this.message = why ?? m;
        this.board.sync(true);
        this.view.renderSide();
        if (why && refusal?.square) this.board.showBubble(refusal.square, why);
      },
      onStatus: (ok) => {
        // Back after a drop: the session may have ended meanwhile (a disabled account), so ask again.
        if (!ok) this.dropped = true;
        else if (this.dropped) {
          this.dropped = false;
          recheckMe();
        }
        this.connected = ok;
        if (!ok) this.clocks.connectionLost();
        this.view.renderSide();
        this.clocks.render();
      },
      onChat: (msgs, history) => this.view.onChat(msgs, history),
      onNotFound: () => {
        this.message = t('notFound');
        this.view.renderSide();
      },
    });
    document.addEventListener('keydown', this.keyHandler);
    this.clocks.start();
  }

  destroy(): void {
    this.socket?.close();
    this.board.destroy();
    this.clocks.destroy();
    document.removeEventListener('keydown', this.keyHandler);
  }

  rerender(): void {
    this.typing.render(this.board.el);
    this.view.rerender();
    this.board.titleHandPieces();
    this.view.renderSide();
    this.view.renderPlayers();
    this.clocks.render();
  }

  private onState(s: GameState): void {
    const prevMoves = this.game.update(s);
    this.board.orientFor(this.game.you);
    if (prevMoves >= 0 && s.moves.length !== prevMoves) {
      this.message = '';
      this.typing.moved(prevMoves, this.game.infos.length === s.moves.length);
    }
    this.clocks.update(s);
    this.board.ensure();
    this.board.sync();
    this.view.renderSide();
    this.view.renderPlayers();
    this.clocks.render();
  }

  send(msg: ClientMessage): void {
    if (!this.socket?.send(msg)) {
      this.message = t('reconnecting');
      this.board.sync(true);
      this.view.renderSide();
    }
  }

  sendChat(text: string): boolean {
    return this.socket?.send({ type: 'chat', text }) ?? false;
  }

  flip(): void {
    this.board.flip();
    this.view.renderPlayers();
    this.clocks.render();
  }

  setView(ply: number | null): void {
    this.game.setView(ply);
    this.board.sync();
    this.view.renderMoves();
  }

  prefsChanged(what: PrefChange): void {
    if (what === 'notation') {
      this.view.renderMoves();
      return;
    }
    applyPrefsClasses(this.board.col, this.prefs);
    if (what === 'pieces' || what === 'ranks') {
      this.board.create();
      this.board.sync();
    }
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    const cur = this.game.viewPly ?? this.game.moveCount();
    if (e.key === 'ArrowLeft') this.setView(cur - 1);
    else if (e.key === 'ArrowRight') this.setView(cur + 1);
    else if (e.key === 'Home' || e.key === 'ArrowUp') this.setView(0);
    else if (e.key === 'End' || e.key === 'ArrowDown') this.setView(null);
    else return;
    e.preventDefault();
  }
}
