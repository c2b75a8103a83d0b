// The server's HTTP + WebSocket protocol (docs/PROTOCOL.md).

import type { FoulView } from '../rules/refusal';
import { problemText, type ServerError } from './problem';

export type Side = 'sente' | 'gote';

export interface ClockView {
  main_ms: number;
  byoyomi_ms: number;
  periods_left: number;
}

/**
 * The legal moves of a position, as the server lists them: board moves by
 * origin square, drops by USI piece letter, and which moves may or must promote
 * (`POST /api/legal`, and part of every game state).
 */
export interface LegalMoves {
  side_to_move: Side;
  dests: Record<string, string[]>;
  drops: Record<string, string[]>;
  promotions: Record<string, 'may' | 'must'>;
}

export interface GameState extends LegalMoves {
  type?: 'state';
  id: string;
  mode: 'ai' | 'friend' | 'local';
  sfen: string;
  start_sfen: string;
  moves: string[];
  last_move: string | null;
  in_check: boolean;
  seats: { sente: boolean; gote: boolean };
  clocks: {
    sente: ClockView;
    gote: ClockView;
    running: Side | null;
    server_time_ms: number;
  } | null;
  status: { over: boolean; winner: Side | null; reason: string | null; foul?: FoulView };
  impasse: {
    rule: string;
    sente_points: number;
    gote_points: number;
    can_declare: boolean;
    can_propose_count: boolean;
    count_proposed_by: Side | null;
  };
  rules: { impasse: string; illegal: 'prevent' | 'lose'; max_moves: number | null };
  you?: Side | 'both' | null;
  /** Who sits where (`null`: a free or unnamed guest seat); absent from older servers. */
  players?: { sente: PlayerView | null; gote: PlayerView | null };
  rated?: boolean;
  /** What a rated game that ended did to both ratings (`null` otherwise). */
  rating_change?: { sente: RatingChange; gote: RatingChange } | null;
  /** A tournament game's event, round and board, and what the event allows. */
  event?: EventPlace;
  /** Whether each seat has a WebSocket open now. */
  connected?: { sente: boolean; gote: boolean };
  takeback?: { proposed_by: Side | null };
  /** The computer's search while it is to move: running, or waiting for a free search thread. */
  computer?: { state: 'thinking' } | { state: 'queued'; ahead: number } | null;
  /** The programs' notes on their moves, only for the moves that have one (absent when none has). */
  notes?: ProgramNote[];
}

/**
 * A program's note on its move (a CSA program's `'*` comment): its evaluation from
 * Sente's side (`score` in centipawns, or `mate`) and the line it expected after
 * the move (USI moves, each legal where it stands).
 */
export interface ProgramNote {
  /** The move's number (1 for the first move). */
  ply: number;
  score: number | null;
  /** The side that mates and in how many plies (`null`: the program did not say). */
  mate: { winner: Side; plies: number | null } | null;
  pv: string[];
}

/** One player's rating before and after a rated game, rounded; `delta` is their difference. */
export interface RatingChange {
  before: number;
  after: number;
  delta: number;
}

/** Where a tournament game is played and what its event allows. */
export interface EventPlace {
  id: string;
  name: string;
  round: number;
  board: number;
  chat: boolean;
  takebacks: boolean;
}

/** A player as a game, a seek or the lobby shows them (docs/PROTOCOL.md, "Games with names"). */
export interface PlayerView {
  name: string;
  guest: boolean;
  /** The rating in the game's time class (`null` for guests and the computer). */
  rating: number | null;
  provisional: boolean;
  /** `1d`, `3k` (or `1 dan`, `3 kyu`); `null` without a rating. */
  rank: string | null;
  computer?: boolean;
  /** A program's account (it plays over CSA); absent for everyone else. */
  bot?: boolean;
}

export interface TimeControl {
  main_ms: number;
  byoyomi_ms: number;
  periods: number;
  increment_ms: number;
}

export interface CreateRequest {
  mode: 'ai' | 'friend' | 'local';
  side: 'sente' | 'gote' | 'random';
  handicap?: string;
  /** A start position instead of a handicap (continuing from a reviewed position). */
  sfen?: string;
  time: TimeControl | null;
  rules?: { impasse: string; illegal: 'prevent' | 'lose'; max_moves: number | null };
  ai?: { level: number };
  /** A guest's display name (ignored for a logged-in client). */
  name?: string;
}

export interface Created {
  id: string;
  token: string;
  side: Side | 'both';
  invite?: string;
}

/**
 * A refused request: its status, the server's `code` and parameters, and as
 * `message` the refusal in the reader's language (problem.ts); `english` is
 * the server's own words.
 */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public code: string | null = null,
    public english: string = message,
    /** The code's parameters (the answer's other fields). */
    public params: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Sends `body` as it is (`json`: labelled as JSON) and parses the JSON reply;
 * a refusal throws an {@link ApiError} worded in the reader's language.
 */
export async function request<T>(method: string, path: string, body?: BodyInit, json = false): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: json ? { 'content-type': 'application/json' } : {},
    body,
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const fallback = `${res.status} ${res.statusText}`;
    const err: ServerError = data && typeof data === 'object' ? (data as ServerError) : {};
    const english = typeof err.error === 'string' ? err.error : fallback;
    throw new ApiError(
      res.status,
      problemText(err, fallback),
      typeof err.code === 'string' ? err.code : null,
      english,
      err,
    );
  }
  return data as T;
}

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return body === undefined ? request(method, path) : request(method, path, JSON.stringify(body), true);
}

export function createGame(req: CreateRequest): Promise<Created> {
  return call('POST', '/api/games', req);
}

export function joinGame(id: string, invite: string, name?: string): Promise<{ token: string; side: Side }> {
  return call('POST', `/api/games/${id}/join`, name ? { invite, name } : { invite });
}

export function getGame(id: string): Promise<GameState> {
  return call('GET', `/api/games/${id}`);
}

/** The legal moves of the position `sfen`. */
export function legalMoves(sfen: string, missingKings = false): Promise<LegalMoves> {
  return call('POST', '/api/legal', missingKings ? { sfen, missing_kings: true } : { sfen });
}

// Seat tokens, kept per game in localStorage.
const tokenKey = (id: string) => `shogi.token.${id}`;

export function savedToken(id: string): string | null {
  return localStorage.getItem(tokenKey(id));
}

export function saveToken(id: string, token: string): void {
  localStorage.setItem(tokenKey(id), token);
}

export function forgetToken(id: string): void {
  localStorage.removeItem(tokenKey(id));
}

/** A chat line between the two players of a game (`hidden`: by a moderator, without its text). */
export interface ChatMessage {
  /** Its number in the game, from 1. */
  n?: number;
  from?: Side;
  name: string | null;
  text?: string;
  at_ms?: number;
  hidden?: boolean;
}
