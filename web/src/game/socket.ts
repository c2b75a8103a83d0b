// The game's WebSocket (docs/PROTOCOL.md): one per game, reconnecting with
// backoff while the page is open, diffs applied to the state it last told;
// `GameSocket` holds it for the game screen and watches when the seat's
// token is refused.

import { type ChatMessage, forgetToken, type GameState } from '../api/api';
import { applyDiff, type GameDiff } from '../api/gamediff';
import { problemText, type ServerError } from '../api/problem';
import type { Refusal } from '../rules/refusal';

/** What the game screen sends over its socket. */
export type ClientMessage =
  | { type: 'move'; usi: string }
  | { type: 'resign' }
  | { type: 'declare' }
  | { type: 'propose_count' }
  | { type: 'accept_count' }
  | { type: 'decline_count' }
  | { type: 'abort' }
  | { type: 'takeback' }
  | { type: 'accept_takeback' }
  | { type: 'decline_takeback' }
  | { type: 'chat'; text: string }
  | { type: 'ping' }
  | { type: 'sync' };

export interface Connection {
  send(msg: ClientMessage): boolean;
  close(): void;
}

export interface ConnectionEvents {
  onState(s: GameState): void;
  /** A refused message in the reader's language; `refusal` for a move the rules refuse (its rule and square). */
  onError(message: string, refusal?: Refusal): void;
  onStatus(connected: boolean): void;
  /** The upgrade was refused for good (bad token or unknown game). */
  onRefused(): void;
  /** Chat: one new line (`history`: false), or the game's last lines on connect (`history`: true). */
  onChat?(messages: ChatMessage[], history: boolean): void;
}

/** One WebSocket per game, reconnecting with backoff while the page is open. */
export function connect(id: string, token: string | null, ev: ConnectionEvents): Connection {
  let ws: WebSocket | null = null;
  /** The state as this socket last told it, the base of its diffs. */
  let held: GameState | null = null;
  /** A diff did not follow `held`: diffs wait for the `state` that answers `sync`. */
  let syncing = false;
  let closed = false;
  let delay = 500;
  let everOpened = false;
  let failures = 0;
  let ping: number | undefined;

  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // Diffs after moves instead of whole states (docs/PROTOCOL.md, "Diffs").
    const q = token ? `?token=${encodeURIComponent(token)}&diffs=1` : '?diffs=1';
    const sock = new WebSocket(`${proto}//${location.host}/api/games/${id}/ws${q}`);
    ws = sock;
    held = null;
    syncing = false;
    sock.onopen = () => {
      everOpened = true;
      failures = 0;
      delay = 500;
      ev.onStatus(true);
      ping = window.setInterval(() => {
        if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: 'ping' }));
      }, 25000);
    };
    sock.onmessage = (e) => {
      let msg: { type?: string; message?: string; code?: string; messages?: ChatMessage[]; n?: number };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === 'state') {
        held = msg as GameState;
        syncing = false;
        ev.onState(held);
      } else if (msg.type === 'diff') {
        if (syncing || !held) return;
        const next = applyDiff(held, msg as unknown as GameDiff);
        if (next) {
          held = next;
          ev.onState(next);
        } else {
          syncing = true;
          sock.send(JSON.stringify({ type: 'sync' }));
        }
      } else if (msg.type === 'error') {
        const refusal =
          msg.code === 'illegal_move' && typeof (msg as unknown as Refusal).rule === 'string'
            ? (msg as unknown as Refusal)
            : undefined;
        ev.onError(problemText(msg as ServerError, 'error'), refusal);
      } else if (msg.type === 'chat') ev.onChat?.([msg as unknown as ChatMessage], false);
      else if (msg.type === 'chat_history') ev.onChat?.(msg.messages ?? [], true);
      else if (msg.type === 'chat_hidden') ev.onChat?.([{ n: Number(msg.n), name: null, hidden: true }], false);
    };
    sock.onclose = () => {
      window.clearInterval(ping);
      if (closed) return;
      ev.onStatus(false);
      failures++;
      if (!everOpened && failures >= 3) {
        ev.onRefused();
        return;
      }
      window.setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return {
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify(msg));
        return true;
      }
      return false;
    },
    close() {
      closed = true;
      window.clearInterval(ping);
      ws?.close();
    },
  };
}

/** The game screen's socket: a seat's token, or watching when the server refuses it. */
export class GameSocket {
  private conn: Connection | null = null;

  /** `onNotFound`: the game itself refused the watcher (no such game). */
  constructor(
    private id: string,
    private token: string | null,
    private ev: Omit<ConnectionEvents, 'onRefused'> & { onNotFound(): void },
  ) {
    this.start();
  }

  private start(): void {
    this.conn?.close();
    this.conn = connect(this.id, this.token, {
      onState: (s) => this.ev.onState(s),
      onError: (m, refusal) => this.ev.onError(m, refusal),
      onStatus: (ok) => this.ev.onStatus(ok),
      onChat: (msgs, history) => this.ev.onChat?.(msgs, history),
      onRefused: () => {
        if (this.token) {
          // The token is not a seat of this game: watch instead.
          forgetToken(this.id);
          this.token = null;
          this.start();
        } else this.ev.onNotFound();
      },
    });
  }

  /** Sends `msg`; false while the socket is not open. */
  send(msg: ClientMessage): boolean {
    return this.conn?.send(msg) ?? false;
  }

  close(): void {
    this.conn?.close();
  }
}
