// The tournaments API (docs/PROTOCOL.md, "Tournaments"): the shapes of an
// event, its players, rounds, boards and standings, and one typed call per
// route. Pages build their requests only from here.

import { lang } from '../i18n/i18n';
import { request, type Side, type TimeControl } from './api';

export type Format = 'round_robin' | 'swiss' | 'mcmahon';
export type Play = 'online' | 'otb' | 'mixed';
export type EventStatus = 'registration' | 'running' | 'finished';
/** A board's result: a side won, a draw, or a forfeit (`sente_forfeit`: Sente did not play, Gote wins). */
export type BoardResult = 'sente' | 'gote' | 'draw' | 'sente_forfeit' | 'gote_forfeit' | 'double_forfeit';
/** The tie-break keys, in the order the documentation lists them. */
export const TIEBREAKS = ['sb', 'sos', 'sosos', 'sodos', 'median', 'direct', 'wins', 'cumulative'] as const;
export type TiebreakKey = (typeof TIEBREAKS)[number];
/** The results an organiser may enter, in the order the result menu offers them. */
export const RESULTS: BoardResult[] = ['sente', 'gote', 'draw', 'sente_forfeit', 'gote_forfeit', 'double_forfeit'];
/** The pairing rules a round may break (a round's `warnings`). */
export const WARNING_RULES = [
  'rematch',
  'second_bye',
  'third_colour_in_row',
  'bye_not_lowest',
  'score_gap',
  'repeated_float',
  'same_club',
  'colour_imbalance',
] as const;

/** The default tie-breaks of a format (as the server chooses them when none are given). */
export function defaultTiebreaks(format: Format): TiebreakKey[] {
  return format === 'round_robin' ? ['direct', 'wins', 'sb'] : ['sos', 'sosos', 'direct'];
}

/** One event of the list (`GET /api/tournaments`). */
export interface EventSummary {
  id: string;
  name: string;
  place: string | null;
  starts: string | null;
  ends: string | null;
  format: Format;
  status: EventStatus;
  players: number;
  rounds: number | null;
  round: number;
}

/** A player of an event; `player` is their number (the Berger number in a round robin). */
export interface EventPlayer {
  player: number;
  name: string;
  account: string | null;
  rating: number | null;
  rank: string | null;
  club: string | null;
  from_round: number;
  withdrawn: boolean;
  /** The rank the player proposed when accepting an invitation (organisers set `rank`). */
  proposed_rank?: string | null;
}

/** A pending invitation as an event's organisers see it (`invitations` of the event). */
export interface PendingInvitation {
  name: string;
  by: string;
  at_ms: number;
  rank: string | null;
  club: string | null;
}

/** One of the client's pending invitations (`GET /api/me/invitations`). */
export interface MyInvitation {
  tournament: string;
  name: string;
  by: string;
  at_ms: number;
  time: TimeControl | null;
  rated: boolean;
  play: Play;
  format: Format;
  starts: string | null;
}

/** A board of a round. */
export interface Board {
  board: number;
  sente: number;
  gote: number;
  /** The online game (`null` over the board); `games` lists it and its sennichite replays. */
  game: string | null;
  games: string[];
  play: 'online' | 'otb';
  result: BoardResult | null;
  colours: 'table' | 'furigoma' | 'balance' | 'forced' | string;
  toss: { tosser: number; fu: number } | null;
  handicap: string;
  record: boolean;
  reports: { sente: 'sente' | 'gote' | 'draw' | null; gote: 'sente' | 'gote' | 'draw' | null } | null;
}

/** A player without a board in a round: the pairing bye, or sitting out (0, ½ or 1 point). */
export interface Bye {
  player: number;
  kind: 'pairing' | 'zero' | 'half' | 'full';
  points: number;
}

export interface PairingWarning {
  rule: string;
  players: number[];
}

export interface Round {
  round: number;
  pairings: Board[];
  bye: number | null;
  byes: Bye[];
  warnings: PairingWarning[];
}

export interface Standing {
  rank: number;
  player: number;
  name: string;
  points: number;
  tiebreaks: Partial<Record<string, number>>;
}

/** An event (`GET /api/tournaments/{id}`). */
export interface TEvent {
  id: string;
  name: string;
  place: string | null;
  starts: string | null;
  ends: string | null;
  format: Format;
  double: boolean;
  time: TimeControl | null;
  rated: boolean;
  play: Play;
  impasse: string;
  tiebreaks: string[];
  open: boolean;
  handicap: boolean;
  /** Online games allow chat; absent from older servers. */
  chat?: boolean;
  /** Online games allow takebacks. */
  takebacks?: boolean;
  mcmahon: { bar: string; floor: string } | null;
  status: EventStatus;
  round: number;
  organisers: string[];
  you: { organiser: boolean; player: number | null } | null;
  players: EventPlayer[];
  standings: Standing[];
  /** The rounds planned. */
  planned_rounds: number;
  /** The rounds paired, round 1 first. */
  rounds: Round[];
  /** Pending invitations (organisers only; empty for others). */
  invitations: PendingInvitation[];
}

/** The event as the page uses it: the planned number of rounds and the paired rounds apart. */
export interface EventView extends Omit<TEvent, 'rounds'> {
  planned: number | null;
  paired: Round[];
}

/** Reads the event JSON (docs/PROTOCOL.md), every list defaulting to empty. */
export function eventView(raw: unknown): EventView {
  const e = raw as Record<string, unknown>;
  const paired = Array.isArray(e.rounds) ? (e.rounds as Round[]) : [];
  const planned = typeof e.planned_rounds === 'number' ? e.planned_rounds : null;
  return {
    ...(e as unknown as TEvent),
    planned,
    paired: paired.map((r) => ({
      ...r,
      pairings: r.pairings ?? [],
      byes: r.byes ?? (r.bye ? [{ player: r.bye, kind: 'pairing', points: 1 }] : []),
      warnings: r.warnings ?? [],
    })),
    players: (e.players as EventPlayer[] | undefined) ?? [],
    standings: (e.standings as Standing[] | undefined) ?? [],
    organisers: (e.organisers as string[] | undefined) ?? [],
    tiebreaks: (e.tiebreaks as string[] | undefined) ?? [],
    you: (e.you as TEvent['you'] | undefined) ?? null,
    invitations: (e.invitations as PendingInvitation[] | undefined) ?? [],
  };
}

/** What `POST /api/tournaments` takes. */
export interface CreateEvent {
  name: string;
  place?: string;
  starts?: string;
  ends?: string;
  format: Format;
  rounds?: number;
  double?: boolean;
  time: TimeControl;
  rated: boolean;
  play: Play;
  impasse: string;
  tiebreaks: TiebreakKey[];
  open: boolean;
  handicap: boolean;
  mcmahon?: { bar: string; floor: string };
  /** Online games allow chat (default off). */
  chat?: boolean;
  /** Online games allow takebacks (default off). */
  takebacks?: boolean;
}

/** A new or changed player (`POST`/`PUT .../players`). */
export interface PlayerEntry {
  name?: string;
  account?: string;
  rating?: number | null;
  rank?: string | null;
  club?: string | null;
}

/** What `POST .../rounds` takes: players sitting out with their points, and pairs to keep together. */
export interface PairRequest {
  sit_out?: { player: number; points: number }[];
  forced?: [number, number][];
}

/** One of the client's online event games not yet finished (`GET /api/me/tournament-games`). */
export interface MyEventGame {
  tournament: string;
  name: string;
  round: number;
  board: number;
  game: string;
  side: Side;
  opponent: string;
}

/** An audit entry: who, when, an action code and its parameters (`{text}` for an old entry of plain words). */
export interface AuditEntry {
  at_ms: number;
  by: string;
  action: string;
  params: Record<string, unknown>;
}

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return body === undefined ? request(method, path) : request(method, path, JSON.stringify(body), true);
}

const base = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

export async function listEvents(mine: boolean): Promise<EventSummary[]> {
  const r = await call<{ events: EventSummary[] }>('GET', `/api/tournaments${mine ? '?mine=1' : ''}`);
  return r?.events ?? [];
}

export function createEvent(req: CreateEvent): Promise<{ id: string }> {
  return call('POST', '/api/tournaments', req);
}

/** Changes an event's settings (organisers; `PUT /api/tournaments/{id}`). */
export function updateEvent(id: string, req: CreateEvent): Promise<unknown> {
  return call('PUT', base(id), req);
}

export async function getEvent(id: string): Promise<EventView> {
  return eventView(await call<unknown>('GET', base(id)));
}

/** Enters a player (`{player}`, 201), or, for an organiser naming another account, invites it (`{invitation}`, 202). */
export function addPlayer(
  id: string,
  p: PlayerEntry,
): Promise<{ player?: number; invitation?: PendingInvitation; entered?: boolean }> {
  return call('POST', `${base(id)}/players`, p);
}

export async function myInvitations(): Promise<MyInvitation[]> {
  const r = await call<{ invitations: MyInvitation[] }>('GET', '/api/me/invitations');
  return r?.invitations ?? [];
}

/** Accepts the client's invitation to event `id`, proposing `rank` if given. */
export function acceptInvitation(id: string, rank: string): Promise<{ player: number }> {
  return call('POST', `${base(id)}/invitation/accept`, rank.trim() ? { rank: rank.trim() } : {});
}

export function declineInvitation(id: string): Promise<null> {
  return call('POST', `${base(id)}/invitation/decline`, {});
}

/** An organiser withdraws the invitation of account `name`. */
export function withdrawInvitation(id: string, name: string): Promise<null> {
  return call('DELETE', `${base(id)}/invitations/${encodeURIComponent(name)}`);
}

export function editPlayer(id: string, n: number, p: PlayerEntry): Promise<EventPlayer> {
  return call('PUT', `${base(id)}/players/${n}`, p);
}

export function withdrawPlayer(id: string, n: number): Promise<null> {
  return call('DELETE', `${base(id)}/players/${n}`);
}

export function addOrganiser(id: string, name: string): Promise<unknown> {
  return call('POST', `${base(id)}/organisers`, { name });
}

export function removeOrganiser(id: string, name: string): Promise<null> {
  return call('DELETE', `${base(id)}/organisers/${encodeURIComponent(name)}`);
}

export function pairRound(id: string, req: PairRequest): Promise<Round> {
  return call('POST', `${base(id)}/rounds`, req);
}

export function unpairRound(id: string, n: number): Promise<null> {
  return call('DELETE', `${base(id)}/rounds/${n}`);
}

/** Sets a board's result (`null` clears it), attaches a KIF, or moves it online/over the board. */
export function putBoard(
  id: string,
  round: number,
  board: number,
  change: { result?: BoardResult | null; kif?: string; play?: 'online' | 'otb'; handicap?: string },
): Promise<Board> {
  return call('PUT', `${base(id)}/rounds/${round}/boards/${board}`, change);
}

export function reportResult(
  id: string,
  round: number,
  board: number,
  result: 'sente' | 'gote' | 'draw',
): Promise<Board> {
  return call('POST', `${base(id)}/rounds/${round}/boards/${board}/report`, { result });
}

export async function auditLog(id: string): Promise<AuditEntry[]> {
  const r = await call<{ entries: AuditEntry[] }>('GET', `${base(id)}/audit`);
  return r?.entries ?? [];
}

export async function myEventGames(): Promise<MyEventGame[]> {
  const r = await call<{ games: MyEventGame[] }>('GET', '/api/me/tournament-games');
  return r?.games ?? [];
}

/** The download links of an event. */
export const exportPath = {
  csv: (id: string) => `${base(id)}/crosstable.csv?lang=${lang()}`,
  report: (id: string) => `${base(id)}/report.txt`,
  zip: (id: string) => `${base(id)}/games.zip`,
  record: (id: string, round: number, board: number) => `${base(id)}/rounds/${round}/boards/${board}/record`,
};
