// The game screen: board, hands, clocks, controls and the move list.

import type { Api } from 'shogiground/api';
import type { Config } from 'shogiground/config';
import type * as sg from 'shogiground/types';

import { guestNameToSend, me } from '../accounts/account';
import { guestNameField } from '../accounts/accountbar';
import {
  ApiError,
  connect,
  forgetToken,
  getGame,
  joinGame,
  savedToken,
  saveToken,
  type ChatMessage,
  type ClientMessage,
  type Connection,
  type GameState,
  type Side,
} from '../api/api';
import { ChatPanel } from './chat';
import { clockNow, clockText, type ClockNow, type ClockReading } from './clock';
import { h, option } from '../dom';
import { dropUsi, groundDests, lastDests, makeGround, moveUsi } from '../board/ground';
import { lang, t, type MsgKey } from '../i18n/i18n';
import { defaultNotation, lineMoveText, moveText } from '../board/movetext';
import { NOTATIONS, type Notation } from '../board/notation';
import type { Screen } from '../screen';
import { renderNotFound } from '../screen';
import { beepDue, playBeep, setSoundOn, soundOn } from './byoyomi';
import { couldTry, describePosition, isListed, matchMove } from '../board/keyboard';
import { foulText, ruleText } from '../rules/refusal';
import { hasProfile, playerDetail, profilePath } from '../accounts/players';
import {
  boardSfen,
  fileRank,
  handsSfen,
  inZone,
  opposite,
  promoted,
  replay,
  unpromoted,
  type MoveInfo,
  type Position,
  type Role,
} from '../board/shogi';

type PieceSet = 'kanji' | 'intl';

interface Prefs {
  notation: Notation;
  pieces: PieceSet;
  coords: boolean;
}

function loadPrefs(): Prefs {
  const defaults: Prefs = {
    notation: defaultNotation(),
    pieces: 'kanji',
    coords: true,
  };
  try {
    const saved = JSON.parse(localStorage.getItem('shogi.prefs') ?? '{}') as Partial<Prefs>;
    return { ...defaults, ...saved };
  } catch {
    return defaults;
  }
}

function savePrefs(p: Prefs): void {
  localStorage.setItem('shogi.prefs', JSON.stringify(p));
}

/** Two words of a sentence: Japanese needs no space between them. */
function words(a: string, b: string): string {
  return lang() === 'ja' ? a + b : `${a} ${b}`;
}

const inviteKey = (id: string) => `shogi.invite.${id}`;

const NOTATION_LABEL: Record<Notation, MsgKey> = {
  japanese: 'notJapanese',
  western: 'notWestern',
  russian: 'notRussian',
  usi: 'notUsi',
};

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

/** Whether a declaration by the side to move would win on points (27: 28 for Sente, 27 for Gote; 24: 31). */
function declarationWins(s: GameState): boolean {
  const mover = s.side_to_move;
  const points = mover === 'sente' ? s.impasse.sente_points : s.impasse.gote_points;
  const needed = s.impasse.rule === '24' ? 31 : mover === 'sente' ? 28 : 27;
  return s.impasse.can_declare && points >= needed;
}

/** The game screen of one game, fed by the game's WebSocket. */
class Game implements Screen {
  private st: GameState | null = null;
  private you: Side | 'both' | null = null;
  private conn: Connection | null = null;
  private ground: Api | null = null;
  private orientation: Side = 'sente';
  private orientationSet = false;
  private viewPly: number | null = null;
  private positions: Position[] = [];
  private infos: MoveInfo[] = [];
  private prefs = loadPrefs();
  private clock: ClockReading | null = null;
  /** performance.now() when the socket closed: the clocks stand still and read "unknown" until the next state. */
  private clockLostAt: number | null = null;
  private timer = 0;
  private message = '';
  private connected = false;
  private copied = false;
  private shown = '';
  private movesPanel: HTMLElement | null = null;
  private settingsEl: HTMLElement | null = null;
  private chat: ChatPanel | null = null;
  private chatBacklog: ChatMessage[] = [];

  // Elements that live across renders.
  private boardCol = h('div', { class: 'board-col' });
  private boardEl = h('div', { class: 'board' });
  private handTop = h('div', { class: 'hand hand-top-el' });
  private handBottom = h('div', { class: 'hand hand-bottom-el' });
  private playerTop = h('div', { class: 'player top' });
  private playerBottom = h('div', { class: 'player bottom' });
  private side = h('div', { class: 'side' });
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  /** Keyboard play under the board, and the screen reader's words (moves, the position on request). */
  private typePanel = h('form', { class: 'type-move', id: 'type-move' });
  private typeNote = h('div', { class: 'type-note', id: 'type-note', role: 'status' });
  private liveEl = h('div', { class: 'visually-hidden', id: 'live', 'aria-live': 'polite' });
  /** The last reading of the clock the sounds follow, and whose it was. */
  private beepReading: { side: Side; now: ClockNow } | null = null;

  constructor(
    root: HTMLElement,
    private id: string,
    private token: string | null,
    joinError: string,
    private seatTaken = false,
  ) {
    this.message = joinError;
    this.boardCol.append(
      this.playerTop,
      this.handTop,
      h('div', { class: 'board-wrap' }, this.boardEl),
      this.handBottom,
      this.playerBottom,
      this.typePanel,
      this.liveEl,
    );
    this.typePanel.addEventListener('submit', (e) => {
      e.preventDefault();
      const input = this.typePanel.querySelector<HTMLInputElement>('#move-input');
      if (input) this.onTyped(input);
    });
    this.renderTypePanel();
    root.replaceChildren(h('div', { class: 'game' }, this.boardCol, this.side));
    this.applyPrefsClasses();
    this.renderSide();
    this.start();
    document.addEventListener('keydown', this.keyHandler);
    this.timer = window.setInterval(() => this.renderClocks(), 100);
  }

  private start(): void {
    this.conn?.close();
    this.conn = connect(this.id, this.token, {
      onState: (s) => this.onState(s),
      onError: (m, refusal) => {
        const why = refusal ? ruleText(refusal.rule, refusal.file) : null;
        this.message = why ?? m;
        this.syncBoard(true);
        this.renderSide();
        if (why && refusal?.square) this.showBubble(refusal.square, why);
      },
      onStatus: (ok) => {
        this.connected = ok;
        if (!ok && this.clockLostAt === null) this.clockLostAt = performance.now();
        this.renderSide();
        this.renderClocks();
      },
      onChat: (msgs, history) => this.onChat(msgs, history),
      onRefused: () => {
        if (this.token) {
          // The token is not a seat of this game: watch instead.
          forgetToken(this.id);
          this.token = null;
          this.start();
        } else {
          this.message = t('notFound');
          this.renderSide();
        }
      },
    });
  }

  destroy(): void {
    this.conn?.close();
    this.ground?.destroy();
    window.clearInterval(this.timer);
    document.removeEventListener('keydown', this.keyHandler);
  }

  rerender(): void {
    this.renderTypePanel();
    this.movesPanel = null;
    this.settingsEl = null;
    this.chat?.draw();
    this.titleHandPieces();
    this.renderSide();
    this.renderPlayers();
    this.renderClocks();
  }

  // ---- state ----

  private onState(s: GameState): void {
    const prevMoves = this.st?.moves.length ?? -1;
    this.st = s;
    this.you = s.you ?? null;
    if (!this.orientationSet) {
      this.orientation = this.you === 'gote' ? 'gote' : 'sente';
      this.orientationSet = true;
    }
    const r = replay(s.start_sfen, s.moves);
    this.positions = r.positions;
    this.infos = r.infos;
    // Looking at an earlier position stays there; past the end means live.
    if (this.viewPly !== null && this.viewPly >= s.moves.length) this.viewPly = null;
    if (prevMoves >= 0 && s.moves.length !== prevMoves) {
      this.message = '';
      this.typeNote.replaceChildren();
      if (s.moves.length > prevMoves && this.infos.length === s.moves.length) {
        const n = s.moves.length;
        this.liveEl.textContent = t('lastMoveSaid')
          .replace('{n}', String(n))
          .replace('{move}', lineMoveText(this.infos, n - 1, this.prefs.notation));
      }
    }
    this.clockLostAt = null;
    if (s.clocks) {
      const prevFull = this.clock?.fullPeriod ?? 0;
      this.clock = {
        state: s.clocks,
        at: performance.now(),
        fullPeriod: Math.max(prevFull, s.clocks.sente.byoyomi_ms, s.clocks.gote.byoyomi_ms),
        over: s.status.over,
      };
    } else this.clock = null;
    if (!this.ground) this.createGround();
    this.syncBoard();
    this.renderSide();
    this.renderPlayers();
    this.renderClocks();
  }

  private onChat(msgs: ChatMessage[], history: boolean): void {
    if (this.chat) this.chat.add(msgs, history);
    else this.chatBacklog = history ? [...msgs] : [...this.chatBacklog, ...msgs];
  }

  /** The chat panel: for the two seated players of a game between people. */
  private chatPanel(): HTMLElement | null {
    const s = this.st;
    if (s?.mode !== 'friend' || (this.you !== 'sente' && this.you !== 'gote')) return null;
    if (!this.chat) {
      this.chat = new ChatPanel(this.you, (text) => this.conn?.send({ type: 'chat', text }) ?? false);
      this.chat.add(this.chatBacklog, true);
      this.chatBacklog = [];
    }
    return this.chat.el;
  }

  private canAct(): boolean {
    const s = this.st;
    if (!s || s.status.over || !this.you) return false;
    return this.you === 'both' || this.you === s.side_to_move;
  }

  private live(): boolean {
    return this.viewPly === null || (this.st !== null && this.viewPly >= this.st.moves.length);
  }

  // ---- board ----

  private groundConfig(): Config {
    return {
      orientation: this.orientation,
      viewOnly: this.you === null,
      coordinates: {
        enabled: true,
        files: 'numeric',
        ranks: this.prefs.pieces === 'kanji' ? 'japanese' : 'engine',
      },
      animation: { enabled: true, duration: 150 },
      premovable: { enabled: false },
      predroppable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastDests: true, check: true },
      drawable: { enabled: true, visible: true },
      promotion: {
        promotesTo: (role) => promoted(role as Role),
        unpromotesTo: (role) => unpromoted(role as Role),
        movePromotionDialog: (orig, dest) => this.promotionChoice(orig, dest),
        forceMovePromotion: (orig, dest) => this.st?.promotions[orig + dest] === 'must',
        dropPromotionDialog: () => false,
        forceDropPromotion: () => false,
      },
      movable: {
        showDests: true,
        events: {
          after: (orig, dest, prom) => this.tryMove(moveUsi(orig, dest, prom)),
        },
      },
      droppable: {
        showDests: true,
        events: {
          after: (piece, key) => {
            const usi = dropUsi(piece.role, key);
            if (usi) this.tryMove(usi);
          },
        },
      },
      events: {
        insert: () => this.titleHandPieces(),
      },
    };
  }

  /** The field under the board for typing a move, and "Describe the position". */
  private renderTypePanel(): void {
    const input = h('input', {
      type: 'text',
      id: 'move-input',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: t('typeMoveHint'),
    });
    const describe = this.button(t('describePosition'), 'describe', () => {
      const pos = this.positions[this.viewPly ?? this.positions.length - 1];
      if (pos) this.liveEl.textContent = describePosition(pos);
    });
    this.typePanel.replaceChildren(
      h('label', { class: 'field', for: 'move-input' }, t('typeMove')),
      h('div', { class: 'row' }, input, h('button', { type: 'submit', id: 'play-typed' }, t('playTyped')), describe),
      this.typeNote,
    );
    this.boardEl.setAttribute('role', 'region');
    this.boardEl.setAttribute('aria-label', t('boardLabel'));
  }

  /** A typed move: played when it names exactly one legal move; several are offered to pick from. */
  private onTyped(input: HTMLInputElement): void {
    const s = this.st;
    const text = input.value.trim();
    if (!text) return;
    const note = (msg: string, ...rest: HTMLElement[]) => this.typeNote.replaceChildren(h('span', {}, msg), ...rest);
    if (!s || !this.canAct()) {
      note(t('notYourTurn'));
      return;
    }
    this.setView(null);
    const pos = this.positions[this.positions.length - 1];
    const prevTo = this.infos[this.infos.length - 1]?.to;
    const found = matchMove(text, s, pos, prevTo);
    if (found.length === 1) {
      input.value = '';
      this.typeNote.replaceChildren();
      this.send({ type: 'move', usi: found[0].usi });
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
                  this.typeNote.replaceChildren();
                  this.send({ type: 'move', usi: c.usi });
                },
              },
              moveText(c.info, prevTo, this.prefs.notation),
            ),
          ),
        ),
      );
    }
  }

  /** A move made on the board: sent when it is legal, or when the piece could
   * make it but a rule forbids it (the server then names the rule, shown at the
   * square); a move no piece makes is put back silently. */
  private tryMove(usi: string): void {
    const s = this.st;
    const pos = this.positions[this.positions.length - 1];
    if (!s || !pos) return;
    if (s.rules.illegal === 'lose' || isListed(s, usi) || couldTry(pos, usi)) this.send({ type: 'move', usi });
    else this.syncBoard(true);
  }

  /** The rule that refused a move, in a bubble over `square` for a few seconds. */
  private showBubble(square: string, text: string): void {
    const wrap = this.boardEl;
    if (!/^[1-9][a-i]$/.test(square)) return;
    wrap.querySelector('.rule-bubble')?.remove();
    const [file, rank] = fileRank(square);
    // Sente's view: file 9 on the left, rank a at the top; Gote's view turned round.
    const col = this.orientation === 'sente' ? 9 - file : file - 1;
    const row = this.orientation === 'sente' ? rank - 1 : 9 - rank;
    const bubble = h('div', { class: 'rule-bubble', id: 'rule-bubble', role: 'status', 'data-square': square }, text);
    bubble.style.left = `${((col + 0.5) / 9) * 100}%`;
    bubble.style.top = `${(row / 9) * 100}%`;
    bubble.classList.toggle('below', row < 2);
    if (row < 2) bubble.style.top = `${((row + 1) / 9) * 100}%`;
    wrap.append(bubble);
    window.setTimeout(() => bubble.remove(), 4000);
  }

  /** Whether a move offers the choice to promote: as the server says, or for
   * moves outside its list (illegal moves that lose) by the promotion zone. */
  private promotionChoice(orig: string, dest: string): boolean {
    const s = this.st;
    if (!s) return false;
    const known = s.promotions[orig + dest];
    if (known) return known === 'may';
    if (s.rules.illegal !== 'lose' || s.dests[orig]?.includes(dest)) return false;
    const piece = this.ground?.state.pieces.get(orig as sg.Key);
    if (!piece || !promoted(piece.role as Role)) return false;
    return inZone(piece.color, orig) || inZone(piece.color, dest);
  }

  private createGround(): void {
    this.ground?.destroy();
    this.ground = makeGround(this.groundConfig(), {
      board: this.boardEl,
      hands: { top: this.handTop, bottom: this.handBottom },
    });
  }

  private titleHandPieces(): void {
    for (const el of this.boardCol.querySelectorAll<HTMLElement>('sg-hand piece')) {
      const role = [...el.classList].find((c) => c !== 'sente' && c !== 'gote');
      if (role) el.title = t(`piece_${role}` as MsgKey);
    }
  }

  private syncBoard(force = false): void {
    const s = this.st;
    const g = this.ground;
    if (!s || !g) return;
    const ply = this.live() ? s.moves.length : (this.viewPly ?? 0);
    const pos = this.positions[Math.min(ply, this.positions.length - 1)];
    const info = ply > 0 ? this.infos[ply - 1] : undefined;
    const live = this.live() && ply === s.moves.length;
    const act = live && this.canAct();
    const { dests, drops } = groundDests(act ? s : undefined);
    const useServerSfen = live;
    const sfenParts = s.sfen.split(' ');
    g.set({
      sfen: useServerSfen
        ? { board: sfenParts[0], hands: sfenParts[2] ?? '-' }
        : { board: boardSfen(pos), hands: handsSfen(pos) },
      turnColor: live ? s.side_to_move : pos.turn,
      activeColor: act ? s.side_to_move : undefined,
      checks: live ? s.in_check : false,
      lastDests: lastDests(info),
      // Any move can be tried (tryMove decides what is sent); the dots show the legal ones.
      movable: { dests, free: act },
      droppable: { dests: drops, free: act },
    });
    // A new position (or a refused move) drops any half-made move.
    const shown = `${ply}:${s.moves.length}:${s.status.over}`;
    if (force || shown !== this.shown) g.cancelMoveOrDrop();
    this.shown = shown;
  }

  private send(msg: ClientMessage): void {
    if (!this.conn?.send(msg)) {
      this.message = t('reconnecting');
      this.syncBoard(true);
      this.renderSide();
    }
  }

  private flip(): void {
    this.orientation = opposite(this.orientation);
    this.createGround();
    this.syncBoard();
    this.renderPlayers();
    this.renderClocks();
  }

  private setView(ply: number | null): void {
    const n = this.st?.moves.length ?? 0;
    if (ply !== null) ply = Math.max(0, Math.min(n, ply));
    this.viewPly = ply === n ? null : ply;
    this.syncBoard();
    this.renderMoves();
  }

  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    const n = this.st?.moves.length ?? 0;
    const cur = this.viewPly ?? n;
    if (e.key === 'ArrowLeft') this.setView(cur - 1);
    else if (e.key === 'ArrowRight') this.setView(cur + 1);
    else if (e.key === 'Home' || e.key === 'ArrowUp') this.setView(0);
    else if (e.key === 'End' || e.key === 'ArrowDown') this.setView(null);
    else return;
    e.preventDefault();
  }

  private applyPrefsClasses(): void {
    this.boardCol.classList.toggle('pieces-kanji', this.prefs.pieces === 'kanji');
    this.boardCol.classList.toggle('pieces-intl', this.prefs.pieces === 'intl');
    this.boardCol.classList.toggle('no-coords', !this.prefs.coords);
  }

  // ---- panels ----

  private sideName(side: Side): string {
    const s = this.st;
    let name = side === 'sente' ? `☗ ${t('sente')}` : `☖ ${t('gote')}`;
    if (s?.mode === 'ai' && this.you && this.you !== 'both' && this.you !== side) name += ` · ${t('computer')}`;
    if (this.you === side) name += ` (${t('you')})`;
    return name;
  }

  /** A seat's label: mark, name (a link to the profile for accounts), rating and rank, "(you)", and a dot for a connection. */
  private playerLabel(side: Side): HTMLElement {
    const s = this.st;
    const p = s?.players?.[side] ?? null;
    const mark = side === 'sente' ? '☗' : '☖';
    const you = this.you === side ? ` (${t('you')})` : '';
    const el = h('span', { class: 'name', 'data-side': side });
    if (!p) {
      el.append(this.sideName(side));
    } else {
      const detail = playerDetail(p);
      el.append(
        `${mark} `,
        hasProfile(p)
          ? h('a', { href: profilePath(p.name), 'data-link': true, class: 'player-name' }, p.name)
          : h('span', { class: 'player-name' }, p.name),
      );
      if (detail) el.append(h('span', { class: 'player-detail' }, ` ${detail}`));
      if (you) el.append(you);
    }
    // One dot per human seat: the computer is always there.
    const computer = !!p?.computer || (s?.mode === 'ai' && !p && this.you !== null && this.you !== side);
    const seated = s?.seats[side] && !computer;
    if (s?.connected && seated && !s.status.over) {
      const on = s.connected[side];
      el.append(
        h('span', {
          class: `conn ${on ? 'on' : 'off'}`,
          title: on ? t('online') : t('offline'),
          'aria-label': on ? t('online') : t('offline'),
        }),
      );
    }
    return el;
  }

  /** "☗ Алиса — ☖ Гость (guest)" for the move list's header. */
  private playersLine(): string {
    const ps = this.st?.players;
    if (!ps || (!ps.sente && !ps.gote)) return '';
    const one = (side: Side) => {
      const p = ps[side];
      if (!p) return side === 'sente' ? t('sente') : t('gote');
      const d = playerDetail(p);
      return d ? `${p.name} ${d}` : p.name;
    };
    return `☗ ${one('sente')} — ☖ ${one('gote')}`;
  }

  private renderPlayers(): void {
    const top = opposite(this.orientation);
    const bottom = this.orientation;
    for (const [el, side] of [
      [this.playerTop, top],
      [this.playerBottom, bottom],
    ] as [HTMLElement, Side][]) {
      const toMove = !!this.st && !this.st.status.over && this.st.side_to_move === side;
      el.dataset.side = side;
      el.classList.toggle('to-move', toMove);
      el.replaceChildren(
        this.playerLabel(side),
        h('span', { class: 'clock', 'data-side': side }, h('span', { class: 'main' }), h('span', { class: 'extra' })),
      );
      const clockEl = el.querySelector<HTMLElement>('.clock');
      if (clockEl) clockEl.hidden = !this.clock;
      if (el === this.playerBottom && this.clock?.fullPeriod) el.append(this.soundToggle());
    }
    const hands: [HTMLElement, Side][] = [
      [this.handTop, top],
      [this.handBottom, bottom],
    ];
    for (const [el, side] of hands) el.setAttribute('aria-label', `${t('handLabel')}: ${t(side)}`);
  }

  /** The byoyomi sound switch beside the clock (off until turned on; remembered). */
  private soundToggle(): HTMLElement {
    const on = soundOn();
    const label = on ? t('soundOn') : t('soundOff');
    return h(
      'button',
      {
        type: 'button',
        id: 'sound-toggle',
        class: 'sound-toggle',
        'aria-pressed': String(on),
        'aria-label': label,
        title: label,
        onclick: () => {
          setSoundOn(!soundOn());
          this.renderPlayers();
          this.renderClocks();
        },
      },
      '♪',
    );
  }

  /** Byoyomi beeps for the clock the player listens to: their own, or (spectators, local games) the side to move. */
  private soundBeeps(now: number, lost: boolean): void {
    const r = this.clock;
    const side: Side | null = this.you === 'sente' || this.you === 'gote' ? this.you : (r?.state.running ?? null);
    if (!r || !side || lost) {
      this.beepReading = null;
      return;
    }
    const cur = clockNow(r, side, now);
    const prev = this.beepReading?.side === side ? this.beepReading.now : null;
    this.beepReading = { side, now: cur };
    const beep = beepDue(prev, cur);
    if (beep && soundOn()) playBeep(beep);
  }

  private renderClocks(): void {
    if (!this.clock) return;
    // While the connection is lost the readings are stale: stop where they were and say so.
    const lost = this.clockLostAt !== null && !this.clock.over;
    const now = this.clockLostAt ?? performance.now();
    this.soundBeeps(now, lost);
    for (const el of this.boardCol.querySelectorAll<HTMLElement>('.clock')) {
      const side = el.dataset.side as Side;
      const c = clockNow(this.clock, side, now);
      const text = clockText(c);
      if (lost) text.extra = t('clockPaused');
      const main = el.querySelector('.main');
      const extra = el.querySelector('.extra');
      if (main && main.textContent !== text.main) main.textContent = text.main;
      if (extra && extra.textContent !== text.extra) extra.textContent = text.extra;
      el.classList.toggle('running', c.running && !lost);
      el.classList.toggle('low', c.running && !lost && text.low);
      el.classList.toggle('paused', lost);
      if (lost) el.title = t('clockPausedTitle');
      else el.removeAttribute('title');
    }
  }

  private statusText(): string {
    const s = this.st;
    if (!s) return t('connecting');
    if (s.status.over) {
      if (s.status.reason === 'abort') return `${t('gameOver')}: ${t('reason_abort')}`;
      const reason =
        s.status.reason === 'illegal_move' && s.status.foul
          ? foulText(s.status.foul)
          : s.status.reason
            ? t(`reason_${s.status.reason}` as MsgKey)
            : '';
      const head = s.status.winner ? words(t(s.status.winner), t('wins')) : t('draw');
      return `${t('gameOver')}: ${head}${reason ? ` (${reason})` : ''}`;
    }
    return `${words(t(s.side_to_move), t('toMove'))}${s.in_check ? ` — ${t('check')}` : ''}`;
  }

  private button(label: string, id: string, onclick: () => void, cls = ''): HTMLButtonElement {
    return h('button', { type: 'button', id, class: cls, onclick: () => onclick() }, label);
  }

  private renderSide(): void {
    const s = this.st;
    const parts: (HTMLElement | null)[] = [];
    parts.push(h('div', { class: 'status', id: 'status' }, this.statusText()));
    if (s && !this.connected) parts.push(h('div', { class: 'warn' }, t('reconnecting')));
    if (s && !s.status.over && s.computer) {
      const c = s.computer;
      parts.push(
        h(
          'div',
          { class: 'engine-state', id: 'engine-state', 'data-state': c.state },
          c.state === 'queued' ? t('engineQueued').replace('{n}', String(c.ahead)) : t('engineThinking'),
        ),
      );
    }
    if (this.message) parts.push(h('div', { class: 'error', id: 'message', role: 'alert' }, this.message));
    if (s) {
      parts.push(
        h(
          'div',
          { class: this.you === null && this.seatTaken ? 'seat warn' : 'seat', id: 'seat' },
          this.you === null
            ? t(this.seatTaken ? 'seatTaken' : 'spectator')
            : `${t('youPlay')}: ${this.you === 'both' ? t('bothSides') : t(this.you)}`,
        ),
      );
      parts.push(this.invitePanel());
      parts.push(this.controls());
      parts.push(this.takebackPanel());
      parts.push(this.impassePanel(s));
    }
    // The move list, its buttons and the settings are kept across updates
    // (an open drop-down is not closed by a move); rebuilt on a language change.
    this.movesPanel ??= h(
      'div',
      { class: 'moves-panel' },
      h('h2', {}, t('moves')),
      h('div', { class: 'moves-players', id: 'moves-players' }),
      h('div', { class: 'moves', id: 'moves' }),
      this.navButtons(),
    );
    const line = this.playersLine();
    const playersEl = this.movesPanel.querySelector<HTMLElement>('#moves-players');
    if (playersEl && playersEl.textContent !== line) playersEl.textContent = line;
    this.settingsEl ??= this.settingsPanel();
    parts.push(this.movesPanel, this.chatPanel(), this.settingsEl);
    parts.push(
      h(
        'p',
        { class: 'links' },
        h('a', { href: '/', 'data-link': true, id: 'new-game' }, t('newGame')),
        s?.status.over ? ' · ' : null,
        s?.status.over
          ? h('a', { href: `/review/${this.id}`, 'data-link': true, id: 'review-link' }, t('review'))
          : null,
      ),
    );
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    this.renderMoves();
  }

  private invitePanel(): HTMLElement | null {
    const s = this.st;
    if (s?.mode !== 'friend' || (s.seats.sente && s.seats.gote)) return null;
    const invite = localStorage.getItem(inviteKey(this.id)) ?? sessionStorage.getItem(inviteKey(this.id));
    const panel = h('div', { class: 'invite' }, h('p', {}, t('waiting')));
    if (invite && this.you) {
      const url = new URL(invite, location.href).href;
      const input = h('input', { type: 'text', readonly: true, value: url, id: 'invite-link' });
      input.addEventListener('focus', () => input.select());
      panel.append(
        h('label', {}, t('inviteLink')),
        h(
          'div',
          { class: 'row' },
          input,
          this.button(this.copied ? t('copied') : t('copy'), 'copy-invite', async () => {
            try {
              await navigator.clipboard.writeText(url);
            } catch {
              input.select();
              document.execCommand('copy');
            }
            this.copied = true;
            this.renderSide();
          }),
        ),
      );
    }
    return panel;
  }

  private controls(): HTMLElement {
    const div = h('div', { class: 'controls' });
    const s = this.st;
    if (!s) return div;
    div.append(this.button(t('flip'), 'flip', () => this.flip()));
    if (!this.you || s.status.over) return div;
    const mine = this.you === 'both' || this.you === s.side_to_move;
    const bothSeated = s.seats.sente && s.seats.gote;
    if (bothSeated) {
      div.append(
        this.button(
          t('resign'),
          'resign',
          () => {
            if (confirm(t('confirmResign'))) this.send({ type: 'resign' });
          },
          'danger',
        ),
      );
    }
    // Abort: before each side has made a move.
    if (bothSeated && s.moves.length < 2) {
      div.append(this.button(t('abort'), 'abort', () => this.send({ type: 'abort' })));
    }
    if (this.canProposeTakeback()) {
      div.append(this.button(t('takeback'), 'takeback', () => this.send({ type: 'takeback' })));
    }
    const rule = s.impasse.rule;
    // Declaring is offered only when the conditions are met (a false declaration loses);
    // highlighted when the points win too.
    if ((rule === '27' || rule === '24') && mine && bothSeated && s.impasse.can_declare) {
      div.append(
        this.button(
          t('declare'),
          'declare',
          () => {
            if (confirm(t('confirmDeclare'))) this.send({ type: 'declare' });
          },
          declarationWins(s) ? 'primary' : '',
        ),
      );
    }
    if (rule === 'count24' && bothSeated) {
      const by = s.impasse.count_proposed_by;
      if (by === null && s.impasse.can_propose_count) {
        div.append(this.button(t('proposeCount'), 'propose-count', () => this.send({ type: 'propose_count' })));
      }
      if (by !== null && (this.you === 'both' || this.you !== by)) {
        div.append(
          this.button(t('acceptCount'), 'accept-count', () => this.send({ type: 'accept_count' }), 'primary'),
          this.button(t('declineCount'), 'decline-count', () => this.send({ type: 'decline_count' })),
        );
      }
    }
    return div;
  }

  /** A takeback: in a casual game, by a seated player after a move of their own, none proposed yet. */
  private canProposeTakeback(): boolean {
    const s = this.st;
    const you = this.you;
    if (!s || s.status.over || s.rated !== false || !s.takeback || (you !== 'sente' && you !== 'gote')) return false;
    if (s.takeback.proposed_by !== null || !(s.seats.sente && s.seats.gote)) return false;
    return this.positions.slice(0, s.moves.length).some((p) => p.turn === you);
  }

  /** A proposed takeback: "waiting" for the proposer, Accept / Decline for the other player. */
  private takebackPanel(): HTMLElement | null {
    const s = this.st;
    const by = s?.takeback?.proposed_by ?? null;
    if (!s || s.status.over || by === null || !this.you) return null;
    if (this.you === by) return h('div', { class: 'takeback note', id: 'takeback-state' }, t('takebackProposed'));
    return h(
      'div',
      { class: 'takeback', id: 'takeback-state' },
      h('p', {}, t('takebackAsked')),
      h(
        'div',
        { class: 'controls' },
        this.button(t('accept'), 'accept-takeback', () => this.send({ type: 'accept_takeback' }), 'primary'),
        this.button(t('decline'), 'decline-takeback', () => this.send({ type: 'decline_takeback' })),
      ),
    );
  }

  private impassePanel(s: GameState): HTMLElement {
    const imp = s.impasse;
    const ruleKey: Record<string, MsgKey> = {
      count24: 'impCount24',
      '27': 'imp27',
      '24': 'imp24',
      try: 'impTry',
      none: 'impNone',
    };
    const div = h(
      'div',
      { class: 'impasse', id: 'impasse' },
      h('div', {}, `${t('impasseRule')}: ${t(ruleKey[imp.rule] ?? 'impNone')}`),
    );
    if (imp.rule === 'count24' || imp.rule === '27' || imp.rule === '24') {
      div.append(h('div', { class: 'points' }, `${t('points')}: ☗ ${imp.sente_points} · ☖ ${imp.gote_points}`));
    }
    // How the declaration or the count becomes possible, while it is not.
    const condition: Partial<Record<string, MsgKey>> = {
      '27': 'impasseCond27',
      '24': 'impasseCond24',
      count24: 'impasseCondCount',
    };
    const cond = condition[imp.rule];
    const possible = imp.rule === 'count24' ? imp.can_propose_count || imp.count_proposed_by !== null : imp.can_declare;
    if (cond && !possible && !s.status.over)
      div.append(h('p', { class: 'note impasse-conditions', id: 'impasse-conditions' }, t(cond)));
    if (imp.count_proposed_by && !s.status.over)
      div.append(h('div', { class: 'proposal' }, words(t('countProposedBy'), t(imp.count_proposed_by))));
    return div;
  }

  private navButtons(): HTMLElement {
    const n = () => this.st?.moves.length ?? 0;
    const cur = () => this.viewPly ?? n();
    return h(
      'div',
      { class: 'nav' },
      h(
        'button',
        {
          type: 'button',
          id: 'nav-first',
          title: t('first'),
          'aria-label': t('first'),
          onclick: () => this.setView(0),
        },
        '«',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'nav-prev',
          title: t('prev'),
          'aria-label': t('prev'),
          onclick: () => this.setView(cur() - 1),
        },
        '‹',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'nav-next',
          title: t('next'),
          'aria-label': t('next'),
          onclick: () => this.setView(cur() + 1),
        },
        '›',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'nav-last',
          title: t('last'),
          'aria-label': t('last'),
          onclick: () => this.setView(null),
        },
        '»',
      ),
    );
  }

  private renderMoves(): void {
    const list = this.movesPanel?.querySelector<HTMLElement>('#moves');
    if (!list) return;
    const current = this.viewPly ?? this.infos.length;
    const items: HTMLElement[] = [];
    const startItem = h('button', { type: 'button', class: 'move', 'data-ply': 0 }, `0. ${t('start')}`);
    startItem.classList.toggle('current', current === 0);
    startItem.addEventListener('click', () => this.setView(0));
    items.push(startItem);
    // Gote moves first in handicap games: keep Sente's moves in the left column.
    if (this.positions[0]?.turn === 'gote') items.push(h('span', { class: 'move-gap' }));
    this.infos.forEach((_, i) => {
      const text = lineMoveText(this.infos, i, this.prefs.notation);
      const b = h('button', { type: 'button', class: 'move', 'data-ply': i + 1 }, `${i + 1}. ${text}`);
      b.classList.toggle('current', current === i + 1);
      b.addEventListener('click', () => this.setView(i + 1));
      items.push(b);
    });
    list.replaceChildren(...items);
    const cur = list.querySelector<HTMLElement>('.current');
    if (cur) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight)
        list.scrollTop = top - list.clientHeight / 2;
    }
  }

  private settingsPanel(): HTMLElement {
    const notation = h(
      'select',
      { id: 'notation' },
      NOTATIONS.map((n) => option(n, t(NOTATION_LABEL[n]), this.prefs.notation)),
    );
    notation.addEventListener('change', () => {
      this.prefs.notation = notation.value as Notation;
      savePrefs(this.prefs);
      this.renderMoves();
    });
    const pieces = h(
      'select',
      { id: 'piece-set' },
      option('kanji', t('kanji'), this.prefs.pieces),
      option('intl', t('international'), this.prefs.pieces),
    );
    pieces.addEventListener('change', () => {
      this.prefs.pieces = pieces.value as PieceSet;
      savePrefs(this.prefs);
      this.applyPrefsClasses();
      this.createGround();
      this.syncBoard();
    });
    const coords = h('input', { type: 'checkbox', id: 'coords', checked: this.prefs.coords });
    coords.addEventListener('change', () => {
      this.prefs.coords = coords.checked;
      savePrefs(this.prefs);
      this.applyPrefsClasses();
    });
    return h(
      'div',
      { class: 'settings' },
      h('label', { class: 'field' }, h('span', {}, t('notation')), notation),
      h('label', { class: 'field' }, h('span', {}, t('pieceSet')), pieces),
      h('label', { class: 'check' }, coords, t('coordinates')),
    );
  }
}
