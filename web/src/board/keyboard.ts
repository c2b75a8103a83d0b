// Keyboard play: a typed move read against the legal moves of the side to
// move. Every legal move (from the server's dests / drops / promotions) is
// written in every notation the client shows (notation.ts) and in the forms
// players type (`P-76`, no `+` or `=` where the choice is left open, no
// Japanese markers); the typed text, normalised the same way (case, spaces,
// full-width characters, kanji numerals, `-` and `x`), picks the moves it
// reads as. One move: play it; several: ask; none: say so. And the position
// in words for a screen reader. No DOM here.

import type { LegalMoves } from '../api/api';
import { japanese, russian, western } from './notation';
import { t, type MsgKey } from '../i18n/i18n';
import {
  applyUsi,
  canReach,
  type Color,
  DROP_LETTERS,
  HAND_ROLES,
  type Key,
  type MoveInfo,
  type Position,
  type Role,
} from './shogi';

/** Every legal move of `legal` in USI (a move that may promote twice: with and without `+`). */
export function legalUsis(legal: LegalMoves): string[] {
  const out: string[] = [];
  for (const [from, tos] of Object.entries(legal.dests)) {
    for (const to of tos) {
      const promo = legal.promotions[from + to];
      if (promo !== 'must') out.push(from + to);
      if (promo) out.push(`${from}${to}+`);
    }
  }
  for (const [letter, tos] of Object.entries(legal.drops)) for (const to of tos) out.push(`${letter}*${to}`);
  return out;
}

/** Whether the USI move `usi` is one of the legal moves (promotion aside). */
export function isListed(legal: LegalMoves, usi: string): boolean {
  const drop = usi.match(/^([PLNSGBR])\*([1-9][a-i])$/);
  if (drop) return !!legal.drops[drop[1]]?.includes(drop[2]);
  return !!legal.dests[usi.slice(0, 2)]?.includes(usi.slice(2, 4));
}

/** Whether the side to move could make `usi` by the pieces' movement (a piece of its own that
 * reaches the square, a piece in hand onto an empty square), whatever else the rules say. */
export function couldTry(pos: Position, usi: string): boolean {
  const drop = usi.match(/^([PLNSGBR])\*([1-9][a-i])$/);
  if (drop) {
    const role = DROP_LETTERS[drop[1]];
    return !!role && pos.hands[pos.turn][role] > 0 && !pos.board.has(drop[2]);
  }
  const from = usi.slice(0, 2);
  return pos.board.get(from)?.color === pos.turn && canReach(pos, from, usi.slice(2, 4));
}

const KANJI_DIGITS = '一二三四五六七八九';

/** Typed or written move text reduced to what tells moves apart: NFKC (full-width to ASCII),
 * lower case, kanji numerals as digits, without spaces, side marks, `-`, `x` and brackets. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[一二三四五六七八九]/g, (c) => String(KANJI_DIGITS.indexOf(c) + 1))
    .replace(/[\s▲△☗☖\-x×()（）]/g, '');
}

/** `7f` → `76`: ranks as digits, as Western players also write them. */
function digitRanks(text: string): string {
  return text.replace(/([1-9])([a-i])/g, (_, f: string, r: string) => f + String('abcdefghi'.indexOf(r) + 1));
}

/** Every text that names the move `info` (`prevTo`: the previous move's square, for 同). */
export function moveTexts(info: MoveInfo, prevTo: Key | undefined): string[] {
  const texts = new Set<string>([info.usi]);
  const plain = { ...info, rivals: [] };
  const withFrom = { ...info, rivals: info.from ? [info.from] : [] };
  for (const w of [western(info), western(plain), western(withFrom)]) {
    texts.add(w);
    texts.add(digitRanks(w));
  }
  for (const r of [russian(info, false), russian(info, true)]) {
    texts.add(r);
    // The gold was `З` before it became `Зл` (docs/NOTATION.md); the old letter is still read.
    texts.add(r.replace(/^(\+?)Зл/, '$1З'));
  }
  for (const j of [japanese(info, prevTo), japanese(info, undefined), japanese(plain, undefined)]) {
    texts.add(j);
    // 打 is written only where a board piece could also go there; accepted either way.
    if (info.drop) texts.add(j.replace(/打$/, '')).add(`${j.replace(/打$/, '')}打`);
  }
  const out = new Set<string>();
  for (const text of texts) {
    out.add(text);
    // The choice to promote left open: the text reads as either move (asked).
    if (info.promote || info.declined) out.add(text.replace(/(\+|=|不成|成)$/, ''));
  }
  return [...out].map(normalise);
}

/** A legal move a typed text reads as. */
export interface Candidate {
  usi: string;
  info: MoveInfo;
}

/** The legal moves of `legal` in `pos` that `input` names (`prevTo`: the previous move's square). */
export function matchMove(input: string, legal: LegalMoves, pos: Position, prevTo?: Key): Candidate[] {
  const want = normalise(input);
  if (!want) return [];
  const out: Candidate[] = [];
  for (const usi of legalUsis(legal)) {
    const applied = applyUsi(pos, usi);
    if (applied && moveTexts(applied.info, prevTo).includes(want)) out.push({ usi, info: applied.info });
  }
  return out;
}

const ROLE_ORDER: Role[] = [
  'king',
  'rook',
  'dragon',
  'bishop',
  'horse',
  'gold',
  'silver',
  'promotedsilver',
  'knight',
  'promotedknight',
  'lance',
  'promotedlance',
  'pawn',
  'tokin',
];

/** The position in words for a screen reader: each side's pieces with their squares, then its hand
 * ("☗ Sente: king 5i; gold 6i, 4i; … in hand: pawn ×2"). */
export function describePosition(pos: Position): string {
  const side = (color: Color): string => {
    const groups: string[] = [];
    for (const role of ROLE_ORDER) {
      const squares = [...pos.board].filter(([, p]) => p.color === color && p.role === role).map(([k]) => k);
      if (squares.length) groups.push(`${t(`piece_${role}` as MsgKey)} ${squares.sort().reverse().join(', ')}`);
    }
    const hand = HAND_ROLES.filter((r) => pos.hands[color][r] > 0).map((r) => {
      const n = pos.hands[color][r];
      return n > 1 ? `${t(`piece_${r}` as MsgKey)} ×${n}` : t(`piece_${r}` as MsgKey);
    });
    const mark = color === 'sente' ? '☗' : '☖';
    return `${mark} ${t(color)}: ${groups.join('; ')}. ${t('inHand')}: ${hand.length ? hand.join(', ') : t('nothing')}.`;
  };
  return `${side('sente')} ${side('gote')}`;
}
