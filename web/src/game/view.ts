// The drawing of the game screen beside and around the board: the players'
// rows (names, ratings, connection dots, clocks), the side column (status,
// the computer's state, messages, the seat, the invite link, the buttons,
// a program's evaluation of the move shown, the move list with its
// navigation, the chat, the settings, the links).

import { me } from '../accounts/account';
import type { ChatMessage, Side } from '../api/api';
import {
  botBadge,
  hasProfile,
  playerDetail,
  playerName,
  playerText,
  profilePath,
  signedDelta,
} from '../accounts/players';
import { lineMoveText } from '../board/movetext';
import { opposite } from '../board/shogi';
import { h } from '../dom';
import { programNotePanel } from '../engine/programnote';
import { type MsgKey, t } from '../i18n/i18n';
import { foulText } from '../rules/refusal';
import type { GameBoard } from './board';
import { ChatPanel } from './chat';
import { reportForm } from './report';
import { type GameClocks, soundToggle } from './clocks';
import { button, controls, impassePanel, takebackPanel, words } from './controls';
import { type PrefChange, type Prefs, settingsPanel } from './prefs';
import type { ClientMessage } from './socket';
import type { LiveGame } from './state';

const inviteKey = (id: string) => `shogi.invite.${id}`;

/** What the drawing reads of the screen, and the actions its buttons call. */
export interface ViewHost {
  readonly id: string;
  readonly game: LiveGame;
  readonly prefs: Prefs;
  readonly board: GameBoard;
  readonly clocks: GameClocks;
  /** The invite was used already: this browser watches. */
  readonly seatTaken: boolean;
  /** An error or refusal to show, or ''. */
  readonly message: string;
  readonly connected: boolean;
  send(msg: ClientMessage): void;
  /** Sends a chat line; false while the socket is not open. */
  sendChat(text: string): boolean;
  flip(): void;
  setView(ply: number | null): void;
  prefsChanged(what: PrefChange): void;
}

export class GameView {
  /** The side column. */
  readonly side = h('div', { class: 'side' });
  private copied = false;
  private movesPanel: HTMLElement | null = null;
  /** Where a program's evaluation of the move shown is drawn. */
  private programBox = h('div', { class: 'program-note-box' });
  private settingsEl: HTMLElement | null = null;
  private chat: ChatPanel | null = null;
  /** Where the form reporting the game opens. */
  private reportBox = h('div', { class: 'report-box' });
  private chatBacklog: ChatMessage[] = [];

  constructor(private host: ViewHost) {}

  /** The panels kept across updates are made again in the new language. */
  rerender(): void {
    this.movesPanel = null;
    this.settingsEl = null;
    this.chat?.draw();
  }

  onChat(msgs: ChatMessage[], history: boolean): void {
    if (this.chat) this.chat.add(msgs, history);
    else this.chatBacklog = history ? [...msgs] : [...this.chatBacklog, ...msgs];
  }

  /** The chat panel: for the two seated players of a game between people. */
  private chatPanel(): HTMLElement | null {
    const { st: s, you } = this.host.game;
    if (s?.mode !== 'friend' || (you !== 'sente' && you !== 'gote')) return null;
    if (s.event && !s.event.chat) return null;
    // A program reads no chat (the CSA protocol has none for its game).
    if (s.players?.sente?.bot || s.players?.gote?.bot) return null;
    if (!this.chat) {
      this.chat = new ChatPanel(you, (text) => this.host.sendChat(text), this.host.id);
      this.chat.add(this.chatBacklog, true);
      this.chatBacklog = [];
    }
    return this.chat.el;
  }

  // ---- the players' rows ----

  private sideName(side: Side): string {
    const { st: s, you } = this.host.game;
    let name = side === 'sente' ? `☗ ${t('sente')}` : `☖ ${t('gote')}`;
    if (s?.mode === 'ai' && you && you !== 'both' && you !== side) name += ` · ${t('computer')}`;
    if (you === side) name += ` (${t('you')})`;
    return name;
  }

  /** A seat's label: mark, name (a link to the profile for accounts), rating and rank, "(you)", and a dot for a connection. */
  private playerLabel(side: Side): HTMLElement {
    const { st: s, you: seat } = this.host.game;
    const p = s?.players?.[side] ?? null;
    const mark = side === 'sente' ? '☗' : '☖';
    const you = seat === side ? ` (${t('you')})` : '';
    const el = h('span', { class: 'name', 'data-side': side });
    if (!p) {
      el.append(this.sideName(side));
    } else {
      const detail = playerDetail(p);
      el.append(
        `${mark} `,
        hasProfile(p)
          ? h('a', { href: profilePath(p.name), 'data-link': true, class: 'player-name' }, p.name)
          : h('span', { class: 'player-name' }, playerName(p)),
        botBadge(p.bot) ?? '',
      );
      const change = s?.rating_change?.[side];
      if (change) {
        el.append(
          h('span', { class: 'rating-change', 'data-side': side }, ` ${change.after} (${signedDelta(change.delta)})`),
        );
      } else if (detail) el.append(h('span', { class: 'player-detail' }, ` ${detail}`));
      if (you) el.append(you);
    }
    // One dot per human seat: the computer is always there.
    const computer = !!p?.computer || (s?.mode === 'ai' && !p && seat !== null && seat !== side);
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
    const ps = this.host.game.st?.players;
    if (!ps || (!ps.sente && !ps.gote)) return '';
    const one = (side: Side) => {
      const p = ps[side];
      if (!p) return side === 'sente' ? t('sente') : t('gote');
      return playerText(p);
    };
    return `☗ ${one('sente')} — ☖ ${one('gote')}`;
  }

  /** The players' rows above and below the board (seen from `board.orientation`), with their clocks. */
  renderPlayers(): void {
    const { board, clocks } = this.host;
    const st = this.host.game.st;
    const top = opposite(board.orientation);
    const bottom = board.orientation;
    for (const [el, side] of [
      [board.playerTop, top],
      [board.playerBottom, bottom],
    ] as [HTMLElement, Side][]) {
      const toMove = !!st && !st.status.over && st.side_to_move === side;
      el.dataset.side = side;
      el.classList.toggle('to-move', toMove);
      el.replaceChildren(
        this.playerLabel(side),
        h('span', { class: 'clock', 'data-side': side }, h('span', { class: 'main' }), h('span', { class: 'extra' })),
      );
      const clockEl = el.querySelector<HTMLElement>('.clock');
      if (clockEl) clockEl.hidden = !clocks.reading;
      if (el === board.playerBottom && clocks.reading?.fullPeriod) {
        el.append(
          soundToggle(() => {
            this.renderPlayers();
            clocks.render();
          }),
        );
      }
    }
    const hands: [HTMLElement, Side][] = [
      [board.handTop, top],
      [board.handBottom, bottom],
    ];
    for (const [el, side] of hands) el.setAttribute('aria-label', `${t('handLabel')}: ${t(side)}`);
  }

  // ---- the side column ----

  private statusText(): string {
    const s = this.host.game.st;
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

  renderSide(): void {
    const host = this.host;
    const { st: s, you } = host.game;
    const parts: (HTMLElement | null)[] = [];
    if (s?.event) {
      const ev = s.event;
      const place = t('eventGamePlace')
        .replace('{name}', ev.name)
        .replace('{round}', String(ev.round))
        .replace('{board}', String(ev.board));
      parts.push(
        h('p', { class: 'event-place' }, h('a', { href: `/t/${ev.id}`, 'data-link': true, id: 'event-link' }, place)),
      );
    }
    parts.push(h('div', { class: 'status', id: 'status' }, this.statusText()));
    const change = s?.rating_change;
    if (change) {
      const one = (side: Side) => {
        const p = s.players?.[side];
        const who = p ? playerName(p) : t(side);
        return `${side === 'sente' ? '☗' : '☖'} ${who}: ${change[side].after} (${signedDelta(change[side].delta)})`;
      };
      parts.push(
        h(
          'div',
          { class: 'rating-changes', id: 'rating-changes' },
          `${t('ratingChanges')}: ${one('sente')} · ${one('gote')}`,
        ),
      );
    }
    if (s && !host.connected) parts.push(h('div', { class: 'warn' }, t('reconnecting')));
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
    if (host.message) parts.push(h('div', { class: 'error', id: 'message', role: 'alert' }, host.message));
    if (s) {
      parts.push(
        h(
          'div',
          { class: you === null && host.seatTaken ? 'seat warn' : 'seat', id: 'seat' },
          you === null
            ? t(host.seatTaken ? 'seatTaken' : 'spectator')
            : `${t('youPlay')}: ${you === 'both' ? t('bothSides') : t(you)}`,
        ),
      );
      const send = (msg: ClientMessage) => host.send(msg);
      parts.push(this.invitePanel());
      parts.push(controls(host.game, send, () => host.flip()));
      parts.push(takebackPanel(host.game, send));
      parts.push(impassePanel(s));
      if (this.hasProgram()) parts.push(this.programBox);
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
    this.settingsEl ??= settingsPanel(host.prefs, (what) => host.prefsChanged(what));
    parts.push(this.movesPanel, this.chatPanel(), this.settingsEl);
    parts.push(
      h(
        'p',
        { class: 'links' },
        h('a', { href: '/', 'data-link': true, id: 'new-game' }, t('newGame')),
        s?.status.over ? ' · ' : null,
        s?.status.over
          ? h('a', { href: `/review/${host.id}`, 'data-link': true, id: 'review-link' }, t('review'))
          : null,
        me() && s?.mode === 'friend' ? ' · ' : null,
        me() && s?.mode === 'friend'
          ? h(
              'button',
              {
                type: 'button',
                class: 'link-button',
                id: 'report-game',
                onclick: () => this.reportBox.replaceChildren(reportForm(host.id, null, () => undefined)),
              },
              t('reportGame'),
            )
          : null,
      ),
      this.reportBox,
    );
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    this.renderMoves();
  }

  /** Whether a program plays in this game (its evaluations are shown). */
  private hasProgram(): boolean {
    const ps = this.host.game.st?.players;
    return !!(ps?.sente?.bot || ps?.gote?.bot);
  }

  /** A program's evaluation and expected line for the move shown (drawn with the move list). */
  private renderProgramNote(): void {
    const game = this.host.game;
    const s = game.st;
    if (!s || !this.hasProgram()) return;
    const ply = game.viewPly ?? game.infos.length;
    const mover = ply > 0 ? (game.positions[ply - 1]?.turn ?? null) : null;
    const p = mover ? s.players?.[mover] : null;
    this.programBox.replaceChildren(
      programNotePanel({
        notes: s.notes,
        ply,
        after: game.positions[ply],
        prevTo: game.infos[ply - 1]?.to,
        mover,
        name: p ? playerName(p) : mover ? t(mover) : '',
        notation: this.host.prefs.notation,
      }),
    );
  }

  private invitePanel(): HTMLElement | null {
    const { st: s, you } = this.host.game;
    const id = this.host.id;
    if (s?.mode !== 'friend' || (s.seats.sente && s.seats.gote)) return null;
    const invite = localStorage.getItem(inviteKey(id)) ?? sessionStorage.getItem(inviteKey(id));
    const panel = h('div', { class: 'invite' }, h('p', {}, t('waiting')));
    if (invite && you) {
      const url = new URL(invite, location.href).href;
      const input = h('input', { type: 'text', readonly: true, value: url, id: 'invite-link' });
      input.addEventListener('focus', () => input.select());
      panel.append(
        h('label', {}, t('inviteLink')),
        h(
          'div',
          { class: 'row' },
          input,
          button(this.copied ? t('copied') : t('copy'), 'copy-invite', async () => {
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

  private navButtons(): HTMLElement {
    const game = this.host.game;
    const cur = () => game.viewPly ?? game.moveCount();
    const nav = (id: string, label: MsgKey, mark: string, ply: () => number | null) =>
      h(
        'button',
        { type: 'button', id, title: t(label), 'aria-label': t(label), onclick: () => this.host.setView(ply()) },
        mark,
      );
    return h(
      'div',
      { class: 'nav' },
      nav('nav-first', 'first', '«', () => 0),
      nav('nav-prev', 'prev', '‹', () => cur() - 1),
      nav('nav-next', 'next', '›', () => cur() + 1),
      nav('nav-last', 'last', '»', () => null),
    );
  }

  /** The move list, the shown move marked and scrolled into view, and a program's evaluation of it. */
  renderMoves(): void {
    this.renderProgramNote();
    const list = this.movesPanel?.querySelector<HTMLElement>('#moves');
    if (!list) return;
    const game = this.host.game;
    const current = game.viewPly ?? game.infos.length;
    const items: HTMLElement[] = [];
    const startItem = h('button', { type: 'button', class: 'move', 'data-ply': 0 }, `0. ${t('start')}`);
    startItem.classList.toggle('current', current === 0);
    startItem.addEventListener('click', () => this.host.setView(0));
    items.push(startItem);
    // Gote moves first in handicap games: keep Sente's moves in the left column.
    if (game.positions[0]?.turn === 'gote') items.push(h('span', { class: 'move-gap' }));
    game.infos.forEach((_, i) => {
      const text = lineMoveText(game.infos, i, this.host.prefs.notation);
      const b = h('button', { type: 'button', class: 'move', 'data-ply': i + 1 }, `${i + 1}. ${text}`);
      b.classList.toggle('current', current === i + 1);
      b.addEventListener('click', () => this.host.setView(i + 1));
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
}
