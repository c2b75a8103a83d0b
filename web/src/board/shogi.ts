// A minimal shogi position model for the client: SFEN reading and writing
// and applying USI moves (no legality checks: the server is the referee).
// Used to show earlier positions and to write moves in the various notations.

export type Color = 'sente' | 'gote';
export type Role =
  | 'king'
  | 'rook'
  | 'bishop'
  | 'gold'
  | 'silver'
  | 'knight'
  | 'lance'
  | 'pawn'
  | 'dragon'
  | 'horse'
  | 'promotedsilver'
  | 'promotedknight'
  | 'promotedlance'
  | 'tokin';
export type HandRole = 'rook' | 'bishop' | 'gold' | 'silver' | 'knight' | 'lance' | 'pawn';

export interface Piece {
  role: Role;
  color: Color;
}

/** Square keys as in USI and shogiground: file digit 1-9, rank letter a-i. */
export type Key = string;

export interface Position {
  board: Map<Key, Piece>;
  hands: Record<Color, Record<HandRole, number>>;
  turn: Color;
  moveNumber: number;
}

export const HAND_ROLES: HandRole[] = ['rook', 'bishop', 'gold', 'silver', 'knight', 'lance', 'pawn'];
export const RANKS = 'abcdefghi';

const LETTER_ROLE: Record<string, Role> = {
  k: 'king',
  r: 'rook',
  b: 'bishop',
  g: 'gold',
  s: 'silver',
  n: 'knight',
  l: 'lance',
  p: 'pawn',
  '+r': 'dragon',
  '+b': 'horse',
  '+s': 'promotedsilver',
  '+n': 'promotedknight',
  '+l': 'promotedlance',
  '+p': 'tokin',
};

export const ROLE_LETTER: Record<Role, string> = {
  king: 'K',
  rook: 'R',
  bishop: 'B',
  gold: 'G',
  silver: 'S',
  knight: 'N',
  lance: 'L',
  pawn: 'P',
  dragon: '+R',
  horse: '+B',
  promotedsilver: '+S',
  promotedknight: '+N',
  promotedlance: '+L',
  tokin: '+P',
};

const PROMOTE: Partial<Record<Role, Role>> = {
  rook: 'dragon',
  bishop: 'horse',
  silver: 'promotedsilver',
  knight: 'promotedknight',
  lance: 'promotedlance',
  pawn: 'tokin',
};

export function promoted(role: Role): Role | undefined {
  return PROMOTE[role];
}

export function unpromoted(role: Role): Role {
  for (const [base, prom] of Object.entries(PROMOTE)) if (prom === role) return base as Role;
  return role;
}

export function opposite(c: Color): Color {
  return c === 'sente' ? 'gote' : 'sente';
}

export function key(file: number, rank: number): Key {
  return `${file}${RANKS[rank - 1]}`;
}

/** File 1-9 and rank 1-9 of a key. */
export function fileRank(k: Key): [number, number] {
  return [Number(k[0]), RANKS.indexOf(k[1]) + 1];
}

function emptyHand(): Record<HandRole, number> {
  return { rook: 0, bishop: 0, gold: 0, silver: 0, knight: 0, lance: 0, pawn: 0 };
}

export function parseSfen(sfen: string): Position {
  const [boardPart, turnPart = 'b', handPart = '-', numPart = '1'] = sfen.trim().split(/\s+/);
  const board = new Map<Key, Piece>();
  const rows = boardPart.split('/');
  rows.forEach((row, r) => {
    let file = 9;
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (c >= '1' && c <= '9') {
        file -= Number(c);
        continue;
      }
      let letter = c;
      if (c === '+') letter = `+${row[++i]}`;
      const role = LETTER_ROLE[letter.toLowerCase()];
      if (role) board.set(key(file, r + 1), { role, color: letter === letter.toUpperCase() ? 'sente' : 'gote' });
      file -= 1;
    }
  });
  const hands = { sente: emptyHand(), gote: emptyHand() };
  if (handPart !== '-') {
    let n = 0;
    for (const c of handPart) {
      if (c >= '0' && c <= '9') {
        n = n * 10 + Number(c);
        continue;
      }
      const role = LETTER_ROLE[c.toLowerCase()] as HandRole | undefined;
      if (role) hands[c === c.toUpperCase() ? 'sente' : 'gote'][role] += n || 1;
      n = 0;
    }
  }
  return { board, hands, turn: turnPart === 'w' ? 'gote' : 'sente', moveNumber: Number(numPart) || 1 };
}

export function boardSfen(pos: Position): string {
  const rows: string[] = [];
  for (let r = 1; r <= 9; r++) {
    let row = '';
    let empty = 0;
    for (let f = 9; f >= 1; f--) {
      const p = pos.board.get(key(f, r));
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const l = ROLE_LETTER[p.role];
      row += p.color === 'sente' ? l : l.toLowerCase();
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

export function handsSfen(pos: Position): string {
  let s = '';
  for (const color of ['sente', 'gote'] as Color[]) {
    for (const role of HAND_ROLES) {
      const n = pos.hands[color][role];
      if (!n) continue;
      const l = ROLE_LETTER[role];
      s += (n > 1 ? String(n) : '') + (color === 'sente' ? l : l.toLowerCase());
    }
  }
  return s || '-';
}

export function toSfen(pos: Position): string {
  return `${boardSfen(pos)} ${pos.turn === 'sente' ? 'b' : 'w'} ${handsSfen(pos)} ${pos.moveNumber}`;
}

function clone(pos: Position): Position {
  return {
    board: new Map(pos.board),
    hands: { sente: { ...pos.hands.sente }, gote: { ...pos.hands.gote } },
    turn: pos.turn,
    moveNumber: pos.moveNumber,
  };
}

/** What a move did, for the notations. */
export interface MoveInfo {
  usi: string;
  color: Color;
  /** The moving piece before the move (for drops, the dropped piece). */
  role: Role;
  from?: Key;
  to: Key;
  drop: boolean;
  promote: boolean;
  capture?: Piece;
  /** The piece could have promoted but did not. */
  declined: boolean;
  /** Other pieces of the same kind and colour that could also reach `to`. */
  rivals: Key[];
  /** For drops: a piece of the same kind on the board could move to `to`. */
  boardCouldReach: boolean;
}

export const DROP_LETTERS: Record<string, HandRole> = {
  P: 'pawn',
  L: 'lance',
  N: 'knight',
  S: 'silver',
  G: 'gold',
  B: 'bishop',
  R: 'rook',
};

export function inZone(color: Color, k: Key): boolean {
  const rank = fileRank(k)[1];
  return color === 'sente' ? rank <= 3 : rank >= 7;
}

/** Applies a USI move; returns the new position and what the move was, or null if it makes no sense. */
export function applyUsi(pos: Position, usi: string): { pos: Position; info: MoveInfo } | null {
  const next = clone(pos);
  const color = pos.turn;
  if (usi[1] === '*') {
    const role = DROP_LETTERS[usi[0]];
    const to = usi.slice(2, 4);
    if (!role || !/^[1-9][a-i]$/.test(to)) return null;
    next.hands[color][role] = Math.max(0, next.hands[color][role] - 1);
    next.board.set(to, { role, color });
    next.turn = opposite(color);
    next.moveNumber++;
    const boardCouldReach = [...pos.board].some(
      ([k, p]) => p.color === color && p.role === role && canReach(pos, k, to),
    );
    return {
      pos: next,
      info: { usi, color, role, to, drop: true, promote: false, declined: false, rivals: [], boardCouldReach },
    };
  }
  const from = usi.slice(0, 2);
  const to = usi.slice(2, 4);
  const promote = usi[4] === '+';
  const piece = pos.board.get(from);
  if (!piece || !/^[1-9][a-i]$/.test(to)) return null;
  const capture = pos.board.get(to);
  if (capture) {
    const base = unpromoted(capture.role);
    if (base !== 'king') next.hands[color][base as HandRole]++;
  }
  next.board.delete(from);
  next.board.set(to, { role: promote ? (promoted(piece.role) ?? piece.role) : piece.role, color });
  next.turn = opposite(color);
  next.moveNumber++;
  const declined = !promote && !!promoted(piece.role) && (inZone(color, from) || inZone(color, to));
  const rivals = [...pos.board]
    .filter(([k, p]) => k !== from && p.color === color && p.role === piece.role && canReach(pos, k, to))
    .map(([k]) => k);
  return {
    pos: next,
    info: {
      usi,
      color,
      role: piece.role,
      from,
      to,
      drop: false,
      promote,
      capture,
      declined,
      rivals,
      boardCouldReach: false,
    },
  };
}

// Steps as (file delta, rank delta) for Sente; Gote mirrors the rank delta.
// Files grow to the left from Sente's view; "forward" for Sente is rank - 1.
const KING = [
  [1, 1],
  [0, 1],
  [-1, 1],
  [1, 0],
  [-1, 0],
  [1, -1],
  [0, -1],
  [-1, -1],
];
const GOLD = [
  [1, -1],
  [0, -1],
  [-1, -1],
  [1, 0],
  [-1, 0],
  [0, 1],
];
const SILVER = [
  [1, -1],
  [0, -1],
  [-1, -1],
  [1, 1],
  [-1, 1],
];
const ORTHO = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0],
];
const DIAG = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

function steps(role: Role): { step: number[][]; slide: number[][] } {
  switch (role) {
    case 'king':
      return { step: KING, slide: [] };
    case 'gold':
    case 'tokin':
    case 'promotedsilver':
    case 'promotedknight':
    case 'promotedlance':
      return { step: GOLD, slide: [] };
    case 'silver':
      return { step: SILVER, slide: [] };
    case 'knight':
      return {
        step: [
          [1, -2],
          [-1, -2],
        ],
        slide: [],
      };
    case 'lance':
      return { step: [], slide: [[0, -1]] };
    case 'pawn':
      return { step: [[0, -1]], slide: [] };
    case 'rook':
      return { step: [], slide: ORTHO };
    case 'bishop':
      return { step: [], slide: DIAG };
    case 'dragon':
      return { step: DIAG, slide: ORTHO };
    case 'horse':
      return { step: ORTHO, slide: DIAG };
  }
}

/** Whether the piece on `from` could move to `to` by its movement (pins ignored). */
export function canReach(pos: Position, from: Key, to: Key): boolean {
  const piece = pos.board.get(from);
  if (!piece) return false;
  const own = pos.board.get(to);
  if (own && own.color === piece.color) return false;
  const [ff, fr] = fileRank(from);
  const [tf, tr] = fileRank(to);
  const dir = piece.color === 'sente' ? 1 : -1;
  const { step, slide } = steps(piece.role);
  for (const [df, dr] of step) if (ff + df * dir === tf && fr + dr * dir === tr) return true;
  for (const [df, dr] of slide) {
    let f = ff + df * dir;
    let r = fr + dr * dir;
    while (f >= 1 && f <= 9 && r >= 1 && r <= 9) {
      if (f === tf && r === tr) return true;
      if (pos.board.has(key(f, r))) break;
      f += df * dir;
      r += dr * dir;
    }
  }
  return false;
}

/** The positions after each move: `positions[0]` is the start. */
export function replay(startSfen: string, moves: string[]): { positions: Position[]; infos: MoveInfo[] } {
  const positions = [parseSfen(startSfen)];
  const infos: MoveInfo[] = [];
  for (const usi of moves) {
    const r = applyUsi(positions[positions.length - 1], usi);
    if (!r) break;
    positions.push(r.pos);
    infos.push(r.info);
  }
  return { positions, infos };
}
