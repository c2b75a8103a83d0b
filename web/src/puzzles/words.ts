// The puzzles' words and numbers, apart from the page (no board, no
// requests): the prompt, the reason of a wrong move, the kind choices, and a
// guest's rating and best streak kept in this browser.

import type { LegalMoves } from '../api/api';
import { t, type MsgKey } from '../i18n/i18n';

/** A puzzle as the server sends it. */
export interface PuzzleView {
  id: string;
  kind: 'mate' | 'best';
  sfen: string;
  plies: number;
  side_to_move: 'sente' | 'gote';
  rating: number;
  /** The legal moves of the start position. */
  legal: LegalMoves;
  solution?: string[];
  date?: string;
  /** For an account, the token that says the server served this puzzle (sent back, its first attempt is rated). */
  served?: string;
}

/** A Glicko-2 rating as the server sends it. */
export interface PuzzleRating {
  rating: number;
  deviation: number;
  volatility: number;
}

/** The server's answer to a move. */
export interface AttemptAnswer {
  result: 'continue' | 'solved' | 'wrong';
  reply?: string;
  /** After `continue`: the legal moves after the reply. */
  legal?: LegalMoves;
  why?: 'no_check' | 'not_mate' | 'escapes' | 'not_best';
  rated?: { player: { before: PuzzleRating; after: PuzzleRating } };
  guest_rating?: PuzzleRating;
}

export const RATING_KEY = 'shogi.puzzleRating';
export const STREAK_KEY = 'shogi.puzzleBestStreak';
/** The streak mode starts at this rating and climbs this much per puzzle. */
export const STREAK_START = 600;
export const STREAK_STEP = 100;

/** A guest's rating kept in this browser (a new player's until the first attempt). */
export function guestRating(): PuzzleRating {
  try {
    const r = JSON.parse(localStorage.getItem(RATING_KEY) ?? 'null') as PuzzleRating | null;
    if (r && [r.rating, r.deviation, r.volatility].every((x) => typeof x === 'number' && Number.isFinite(x))) return r;
  } catch {
    // a damaged entry: start again
  }
  return { rating: 1500, deviation: 350, volatility: 0.06 };
}

/** The best streak of a guest in this browser. */
export function guestBestStreak(): number {
  const n = Number(localStorage.getItem(STREAK_KEY));
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** "Sente to move, mate in 3" or "Gote to move: find the best move". */
export function puzzlePrompt(p: Pick<PuzzleView, 'kind' | 'plies' | 'side_to_move'>): string {
  const side = t(p.side_to_move === 'sente' ? 'sente' : 'gote');
  return p.kind === 'mate'
    ? t('puzzleMateIn')
        .replace('{side}', side)
        .replace('{n}', String((p.plies + 1) / 2))
        .replace('{plies}', String(p.plies))
    : t('puzzleBestMove').replace('{side}', side);
}

/** The words for a wrong move (`reply`: the defender's escaping reply, as text). */
export function whyText(why: AttemptAnswer['why'], reply: string): string {
  const key: MsgKey =
    why === 'no_check'
      ? 'puzzleWhyNoCheck'
      : why === 'not_mate'
        ? 'puzzleWhyNotMate'
        : why === 'escapes'
          ? 'puzzleWhyEscapes'
          : 'puzzleWhyNotBest';
  return t(key).replace('{move}', reply);
}

/** The kinds the page offers: `''` any, `mate-N`, `best`. */
export const KINDS = ['', 'mate-1', 'mate-3', 'mate-5', 'mate-7', 'best'];

export function kindLabel(k: string): string {
  if (k === '') return t('puzzleKindAny');
  if (k === 'best') return t('puzzleKindBest');
  const plies = Number(k.slice(5));
  return t('puzzleKindMate')
    .replace('{n}', String((plies + 1) / 2))
    .replace('{plies}', String(plies));
}

export function kindQuery(k: string): string {
  if (k === 'best') return 'kind=best';
  if (k.startsWith('mate-')) return `kind=mate&plies=${k.slice(5)}`;
  return '';
}
