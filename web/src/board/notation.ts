// Move text in the notations the move list offers.

import { fileRank, type Key, type MoveInfo, ROLE_LETTER, type Role, unpromoted } from './shogi';

export type Notation = 'japanese' | 'western' | 'russian' | 'usi';
export const NOTATIONS: Notation[] = ['japanese', 'western', 'russian', 'usi'];

const FULLWIDTH = '０１２３４５６７８９';
const KANJI_NUM = '〇一二三四五六七八九';

const JA_PIECE: Record<Role, string> = {
  king: '玉',
  rook: '飛',
  bishop: '角',
  gold: '金',
  silver: '銀',
  knight: '桂',
  lance: '香',
  pawn: '歩',
  dragon: '龍',
  horse: '馬',
  promotedsilver: '成銀',
  promotedknight: '成桂',
  promotedlance: '成香',
  tokin: 'と',
};

function jaSquare(k: Key): string {
  const [f, r] = fileRank(k);
  return FULLWIDTH[f] + KANJI_NUM[r];
}

type Movement = '上' | '引' | '寄';

function movement(info: MoveInfo, from: Key): Movement {
  const [, fr] = fileRank(from);
  const [, tr] = fileRank(info.to);
  const forward = (fr - tr) * (info.color === 'sente' ? 1 : -1);
  return forward > 0 ? '上' : forward < 0 ? '引' : '寄';
}

/** Larger is further to the mover's right. */
function rightness(info: MoveInfo, k: Key): number {
  const f = fileRank(k)[0];
  return info.color === 'sente' ? -f : f;
}

function sideMarker(info: MoveInfo, from: Key, among: Key[]): string | null {
  const mine = rightness(info, from);
  const others = among.filter((k) => k !== from).map((k) => rightness(info, k));
  if (others.every((o) => o < mine)) return '右';
  if (others.every((o) => o > mine)) return '左';
  return null;
}

const GOLDLIKE: Role[] = ['gold', 'silver', 'tokin', 'promotedsilver', 'promotedknight', 'promotedlance'];

function jaMarkers(info: MoveInfo): string {
  if (!info.from || info.rivals.length === 0) return '';
  const from = info.from;
  const all = [from, ...info.rivals];
  const mv = movement(info, from);
  const sameMove = all.filter((k) => movement(info, k) === mv);
  if (sameMove.length === 1) return mv;
  if (GOLDLIKE.includes(info.role) && mv === '上' && fileRank(from)[0] === fileRank(info.to)[0]) return '直';
  const side = sideMarker(info, from, all);
  if (side) return side;
  const sideOfSame = sideMarker(info, from, sameMove);
  if (sideOfSame) return sideOfSame + mv;
  return `(${from[0]}${'abcdefghi'.indexOf(from[1]) + 1})`;
}

export function japanese(info: MoveInfo, prevTo: Key | undefined): string {
  let s = info.color === 'sente' ? '▲' : '△';
  s += prevTo === info.to ? '同　' : jaSquare(info.to);
  s += JA_PIECE[info.role];
  if (info.drop) {
    if (info.boardCouldReach) s += '打';
    return s;
  }
  s += jaMarkers(info);
  if (info.promote) s += '成';
  else if (info.declined) s += '不成';
  return s;
}

export function western(info: MoveInfo): string {
  const letter = ROLE_LETTER[info.role];
  if (info.drop) return `${letter}*${info.to}`;
  let s = letter;
  if (info.rivals.length > 0 && info.from) s += info.from;
  s += info.capture ? 'x' : '-';
  s += info.to;
  if (info.promote) s += '+';
  else if (info.declined) s += '=';
  return s;
}

const RU_ABBR: Record<string, [string, string]> = {
  king: ['Кр', 'Кр'],
  rook: ['Л', 'Т'],
  bishop: ['С', 'С'],
  gold: ['Зл', 'Зл'],
  silver: ['Ср', 'Ср'],
  knight: ['Кн', 'Кн'],
  lance: ['Кп', 'Сп'],
  pawn: ['П', 'П'],
};

function ruAbbr(role: Role, ukrainian: boolean): string {
  const base = unpromoted(role);
  const abbr = RU_ABBR[base][ukrainian ? 1 : 0];
  return base === role ? abbr : `+${abbr}`;
}

/** Russian style (Ukrainian piece letters when `ukrainian`): `7g-7f`, `С8hx2b+`, `П*5e`. */
export function russian(info: MoveInfo, ukrainian: boolean): string {
  if (info.drop) return `${ruAbbr(info.role, ukrainian)}*${info.to}`;
  let s = info.role === 'pawn' ? '' : ruAbbr(info.role, ukrainian);
  s += `${info.from}${info.capture ? 'x' : '-'}${info.to}`;
  if (info.promote) s += '+';
  else if (info.declined) s += '=';
  return s;
}

export function formatMove(n: Notation, info: MoveInfo, prevTo: Key | undefined, ukrainian: boolean): string {
  switch (n) {
    case 'japanese':
      return japanese(info, prevTo);
    case 'western':
      return western(info);
    case 'russian':
      return russian(info, ukrainian);
    case 'usi':
      return info.usi;
  }
}
