// The lobby's HTTP calls and its WebSocket (docs/PROTOCOL.md, "The lobby"):
// seeks (open challenges) posted, withdrawn and accepted, the games in
// progress, and the seek tokens this browser keeps until a seek is accepted.

import { request, type PlayerView, type Side, type TimeControl } from './api';

/** An open challenge. */
export interface Seek {
  id: string;
  by: PlayerView;
  time: TimeControl | null;
  class: string | null;
  rated: boolean;
  side: Side | 'random';
  handicap: string;
  /** The one player this challenge is addressed to. */
  to: string | null;
  /** A program's challenge: the CSA game name it waits for (docs/CSA.md). */
  game?: string;
  created_at_ms: number;
}

/** A game in progress between two people. */
export interface LiveGame {
  id: string;
  players: { sente: PlayerView | null; gote: PlayerView | null };
  time: TimeControl | null;
  class: string | null;
  rated: boolean;
  handicap: string;
  moves: number;
}

/** The lobby as `GET /api/lobby` and the socket's first message give it. */
export interface Lobby {
  seeks: Seek[];
  live: LiveGame[];
  live_total: number;
}

/** What `POST /api/seeks` takes. */
export interface SeekRequest {
  time: TimeControl | null;
  rated: boolean;
  side: Side | 'random';
  handicap: string;
  to: string | null;
  name: string | null;
}

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return body === undefined ? request(method, path) : request(method, path, JSON.stringify(body), true);
}

// The seat token of each seek this browser posted, until it is accepted or gone.
const SEEK_PREFIX = 'shogi.seek.';

/** The seat token kept for a seek this browser posted, if any. */
export function seekToken(id: string): string | null {
  return localStorage.getItem(SEEK_PREFIX + id);
}

/** Forgets a seek's token (accepted, withdrawn or expired). */
export function forgetSeek(id: string): void {
  localStorage.removeItem(SEEK_PREFIX + id);
}

/** Forgets the tokens of every kept seek not in `open` (expired or withdrawn elsewhere). */
export function pruneSeeks(open: Seek[]): void {
  const ids = new Set(open.map((s) => s.id));
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (k?.startsWith(SEEK_PREFIX) && !ids.has(k.slice(SEEK_PREFIX.length))) localStorage.removeItem(k);
  }
}

/** Posts a seek and keeps its token. */
export async function postSeek(req: SeekRequest): Promise<{ id: string; token: string }> {
  const r = await call<{ id: string; token: string }>('POST', '/api/seeks', req);
  localStorage.setItem(SEEK_PREFIX + r.id, r.token);
  return r;
}

/** Withdraws one's own seek (by the session, and by its token when this browser kept it). */
export async function cancelSeek(id: string): Promise<void> {
  const token = seekToken(id);
  await call<null>('DELETE', `/api/seeks/${id}`, token ? { token } : undefined);
  forgetSeek(id);
}

/** Accepts a seek: the game starts at once. */
export function acceptSeek(id: string, name?: string): Promise<{ game: string; token: string; side: Side }> {
  return call('POST', `/api/seeks/${id}/accept`, name ? { name } : {});
}

/** One message of the lobby's socket. */
export type LobbyMessage =
  | ({ type: 'lobby' } & Lobby)
  | { type: 'seek_added'; seek: Seek }
  | { type: 'seek_removed'; id: string }
  | { type: 'seek_accepted'; id: string; game: string }
  | { type: 'live'; live: LiveGame[]; live_total: number }
  | { type: 'live_moves'; moves: Record<string, number>; live_total: number };

/** The lobby's socket, reconnecting with backoff (0.5 s doubling up to 15 s) while open. */
export function connectLobby(
  onMessage: (m: LobbyMessage) => void,
  onStatus: (connected: boolean) => void,
): { close(): void } {
  let ws: WebSocket | null = null;
  let closed = false;
  let delay = 500;
  let ping: number | undefined;
  let retry: number | undefined;
  const open = () => {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const sock = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    ws = sock;
    sock.onopen = () => {
      delay = 500;
      onStatus(true);
      ping = window.setInterval(() => {
        if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: 'ping' }));
      }, 25000);
    };
    sock.onmessage = (e) => {
      let msg: LobbyMessage;
      try {
        msg = JSON.parse(String(e.data)) as LobbyMessage;
      } catch {
        return;
      }
      onMessage(msg);
    };
    sock.onclose = () => {
      window.clearInterval(ping);
      if (closed) return;
      onStatus(false);
      retry = window.setTimeout(open, delay);
      delay = Math.min(delay * 2, 15000);
    };
  };
  open();
  return {
    close() {
      closed = true;
      window.clearInterval(ping);
      window.clearTimeout(retry);
      ws?.close();
    },
  };
}
