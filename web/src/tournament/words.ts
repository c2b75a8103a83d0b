// A tournament in words, in the reader's language: formats, statuses, results,
// tie-break names, how colours were chosen (the furigoma toss), the pairing
// rules a round breaks, points with halves, and the crosstable's cells
// (`5☗+`: the opponent's number, one's colour, the result). Pure functions
// of the event's data, tested in tests/unit.mjs.

import { lang, t, type MsgKey } from '../i18n/i18n';
import { isoDayText } from '../records/dates';
import {
  WARNING_RULES,
  type Board,
  type BoardResult,
  type Bye,
  type EventView,
  type Format,
  type Round,
} from '../api/tournaments';

const QUARTERS = ['', '¼', '½', '¾'];

/**
 * A score as a tournament table writes it, points and tie-breaks alike, so
 * that one notation for fractions runs through every table: `3`, `2½`, `½`,
 * `12¼`, `−1½`; a value that is not a whole number of quarters with at most
 * two decimals in the reader's locale (`1,33` in Russian).
 */
export function fractionText(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '';
  const quarters = Math.round(v * 4);
  if (Math.abs(v * 4 - quarters) > 1e-6) {
    return new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 }).format(v);
  }
  const sign = quarters < 0 ? '−' : '';
  const whole = Math.floor(Math.abs(quarters) / 4);
  const frac = QUARTERS[Math.abs(quarters) % 4];
  return `${sign}${whole === 0 && frac ? '' : whole}${frac}`;
}

/** Points as a tournament table writes them: `3`, `2½`, `½`, `0`. */
export function pointsText(p: number | null | undefined): string {
  return fractionText(p);
}

/** A tie-break value, in the same notation as the points (`12¼`, `3½`, `8`). */
export function tiebreakValue(v: number | null | undefined): string {
  return fractionText(v);
}

/** A tie-break's full name ("Sonneborn-Berger"); an unknown key as it came. */
export function tiebreakName(key: string): string {
  return key in TB_KEYS ? t(`tb_${key}` as MsgKey) : key;
}

/** A tie-break's short name for a table heading ("SB", "Бух."). */
export function tiebreakShort(key: string): string {
  return key in TB_KEYS ? t(`tbs_${key}` as MsgKey) : key;
}

const TB_KEYS: Record<string, true> = {
  sb: true,
  sos: true,
  sosos: true,
  sodos: true,
  median: true,
  direct: true,
  wins: true,
  cumulative: true,
};

/** A format in words; a double round robin is its own name. */
export function formatText(format: Format | string, double = false): string {
  if (format === 'round_robin') return t(double ? 'fmtDoubleRoundRobin' : 'fmtRoundRobin');
  if (format === 'swiss') return t('fmtSwiss');
  if (format === 'mcmahon') return t('fmtMcMahon');
  return format;
}

/** An event's status in words. */
export function statusText(status: string): string {
  if (status === 'registration' || status === 'running' || status === 'finished') return t(`evStatus_${status}`);
  return status;
}

/** How games are played: in the app, over the board, or chosen per board. */
export function playText(play: string): string {
  if (play === 'online' || play === 'otb' || play === 'mixed') return t(`play_${play}`);
  return play;
}

/** A board's result in words for the result menu and the rounds table ("Sente wins", "Gote forfeits"). */
export function resultLabel(r: BoardResult | null | undefined): string {
  if (!r) return t('resultPending');
  return t(`res_${r}`);
}

/** A board's result as a score line: `1–0`, `0–1`, `½–½`, `+/−` (forfeits), `−/−`; empty when not known. */
export function scoreText(r: BoardResult | null | undefined): string {
  switch (r) {
    case 'sente':
      return '1–0';
    case 'gote':
      return '0–1';
    case 'draw':
      return '½–½';
    case 'sente_forfeit':
      return '−/+';
    case 'gote_forfeit':
      return '+/−';
    case 'double_forfeit':
      return '−/−';
    default:
      return '';
  }
}

/** How a board's colours were chosen; furigoma with its toss ("Furigoma: 4 pawns", "振り駒: 歩×4"). */
export function coloursText(b: Pick<Board, 'colours' | 'toss'>): string {
  switch (b.colours) {
    case 'furigoma':
      return b.toss ? t('colFurigomaToss').replace('{n}', String(b.toss.fu)) : t('colFurigoma');
    case 'table':
      return t('colTable');
    case 'balance':
      return t('colBalance');
    case 'forced':
      return t('colForced');
    default:
      return b.colours ?? '';
  }
}

/** A pairing rule a round breaks, named in the reader's language. */
export function warningText(rule: string): string {
  const known: readonly string[] = WARNING_RULES;
  return known.includes(rule) ? t(`warn_${rule}` as MsgKey) : rule;
}

/** A bye in words: "bye (1)", "sits out (½)". */
export function byeText(b: Bye): string {
  const what = b.kind === 'pairing' ? t('byePairing') : t('byeSitOut');
  return `${what} (${pointsText(b.points)})`;
}

/** The result of a board from one player's side: `+` won, `-` lost, `=` drew, `''` not known; forfeits too. */
export function resultFor(
  r: BoardResult | null | undefined,
  side: 'sente' | 'gote',
): { mark: '+' | '-' | '=' | ''; forfeit: boolean } {
  switch (r) {
    case 'sente':
      return { mark: side === 'sente' ? '+' : '-', forfeit: false };
    case 'gote':
      return { mark: side === 'gote' ? '+' : '-', forfeit: false };
    case 'draw':
      return { mark: '=', forfeit: false };
    case 'sente_forfeit':
      return { mark: side === 'gote' ? '+' : '-', forfeit: true };
    case 'gote_forfeit':
      return { mark: side === 'sente' ? '+' : '-', forfeit: true };
    case 'double_forfeit':
      return { mark: '-', forfeit: true };
    default:
      return { mark: '', forfeit: false };
  }
}

/** One cell of the crosstable: a player's game (or bye) in a round. */
export interface CrossCell {
  /** `5☗+`, `3☖-`, `7☗=`, `12☖` (not played yet), `+` / `=` / `-` for a bye by its points, `` when not paired. */
  text: string;
  opponent: number | null;
  side: 'sente' | 'gote' | null;
  mark: '+' | '-' | '=' | '';
  forfeit: boolean;
}

/** The text of one crosstable cell: opponent, colour mark (☗ Sente, ☖ Gote), result; `*` marks a forfeit. */
export function crossCellText(opponent: number, side: 'sente' | 'gote', mark: string, forfeit: boolean): string {
  return `${opponent}${side === 'sente' ? '☗' : '☖'}${mark}${forfeit && mark ? '*' : ''}`;
}

/** A bye's cell: its points as a result mark (`+` 1, `=` ½, `-` 0). */
export function byeCellText(points: number): string {
  return points >= 1 ? '+' : points > 0 ? '=' : '-';
}

/** Player `player`'s cell in `round`. */
export function crossCell(round: Round, player: number): CrossCell {
  for (const b of round.pairings) {
    if (b.sente === player || b.gote === player) {
      const side = b.sente === player ? 'sente' : 'gote';
      const opponent = side === 'sente' ? b.gote : b.sente;
      const { mark, forfeit } = resultFor(b.result, side);
      return { text: crossCellText(opponent, side, mark, forfeit), opponent, side, mark, forfeit };
    }
  }
  const bye =
    round.byes.find((x) => x.player === player) ??
    (round.bye === player ? { player, kind: 'pairing' as const, points: 1 } : null);
  if (bye) {
    const mark = byeCellText(bye.points) as '+' | '-' | '=';
    return { text: mark, opponent: null, side: null, mark, forfeit: false };
  }
  return { text: '', opponent: null, side: null, mark: '', forfeit: false };
}

/** One row of the crosstable. */
export interface CrossRow {
  rank: number;
  player: number;
  name: string;
  rating: number | null;
  grade: string | null;
  club: string | null;
  cells: CrossCell[];
  points: number;
  tiebreaks: Partial<Record<string, number>>;
}

/** The crosstable: a row a player in standings order (players missing from the standings after them by number). */
export function crosstable(e: Pick<EventView, 'players' | 'paired' | 'standings'>): CrossRow[] {
  const byNo = new Map(e.players.map((p) => [p.player, p]));
  const seen = new Set<number>();
  const rows: CrossRow[] = [];
  const row = (
    player: number,
    rank: number,
    points: number,
    tiebreaks: Partial<Record<string, number>>,
    name?: string,
  ) => {
    const p = byNo.get(player);
    seen.add(player);
    rows.push({
      rank,
      player,
      name: p?.name ?? name ?? String(player),
      rating: p?.rating ?? null,
      grade: p?.rank ?? null,
      club: p?.club ?? null,
      cells: e.paired.map((r) => crossCell(r, player)),
      points,
      tiebreaks,
    });
  };
  for (const s of e.standings) row(s.player, s.rank, s.points, s.tiebreaks ?? {}, s.name);
  for (const p of [...e.players].sort((a, b) => a.player - b.player)) {
    if (!seen.has(p.player)) row(p.player, 0, 0, {});
  }
  return rows;
}

/** A player's points before `round` (the pairing sheet prints them), from the results of earlier rounds. */
export function pointsBefore(e: Pick<EventView, 'paired'>, player: number, round: number): number {
  let sum = 0;
  for (const r of e.paired) {
    if (r.round >= round) continue;
    const c = crossCell(r, player);
    if (c.opponent === null) {
      const bye = r.byes.find((x) => x.player === player);
      if (bye) sum += bye.points;
      else if (r.bye === player) sum += 1;
    } else if (c.mark === '+') sum += 1;
    else if (c.mark === '=') sum += 0.5;
  }
  return sum;
}

/** A date range in the reader's words ("25 дек. 2026 г. – 26 дек. 2026 г."), one date when both are the same, "" without any. */
export function datesText(starts: string | null | undefined, ends: string | null | undefined): string {
  const day = (iso: string) => isoDayText(iso) ?? iso;
  if (starts && ends && starts !== ends) return `${day(starts)} – ${day(ends)}`;
  const one = starts || ends;
  return one ? day(one) : '';
}
