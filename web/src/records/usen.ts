// USEN (URL-safe SFEN-extended notation, from the Playground for Shogi) as
// the analysis board's share link holds it: a start position, the main line
// and variations off the main line (the format has no deeper ones), as
// crates/record/src/usen.rs defines it; tested against strings the Rust
// codec wrote (tests/unit-analysis.mjs).
//
//   {start}~0.{moves}.{final}~{offset}.{moves}.{final}...
//
// The start is the SFEN without its move number, `/` → `_`, space → `.`,
// `+` → `z` (empty for the normal start); a move is three base-36 digits of
// `(from × 81 + to) × 2 + promote`, squares numbered `(rank − 1) × 9 + (file − 1)`,
// drops from `81 + id` (gold 9, pawn 10, lance 11, knight 12, silver 13,
// bishop 14, rook 15). The final action (resignation and so on) is read and
// ignored; none is written.

/** A line off the main line: its first move replaces main-line move `at + 1`. */
export interface UsenVariation {
  at: number;
  moves: string[];
}

/** What a share link holds. */
export interface UsenLine {
  /** The start position (SFEN, move number 1). */
  sfen: string;
  /** The main line, USI. */
  moves: string[];
  variations: UsenVariation[];
}

export const START_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

const RANKS = 'abcdefghi';
const DROP_IDS: Record<string, number> = { G: 9, P: 10, L: 11, N: 12, S: 13, B: 14, R: 15 };

function squareIndex(sq: string): number {
  const file = Number(sq[0]);
  const rank = RANKS.indexOf(sq[1]) + 1;
  return (rank - 1) * 9 + (file - 1);
}

function squareKey(i: number): string | null {
  if (!Number.isInteger(i) || i < 0 || i >= 81) return null;
  return `${(i % 9) + 1}${RANKS[Math.floor(i / 9)]}`;
}

/** The three base-36 digits of a USI move, or null for text that is not a move. */
export function encodeMove(usi: string): string | null {
  let from: number;
  let to: string;
  let promote = 0;
  const drop = usi.match(/^([PLNSGBR])\*([1-9][a-i])$/);
  const board = usi.match(/^([1-9][a-i])([1-9][a-i])(\+?)$/);
  if (drop) {
    from = 81 + DROP_IDS[drop[1]];
    to = drop[2];
  } else if (board) {
    from = squareIndex(board[1]);
    to = board[2];
    promote = board[3] ? 1 : 0;
  } else return null;
  const x = (from * 81 + squareIndex(to)) * 2 + promote;
  return x.toString(36).padStart(3, '0');
}

/** The USI move of three base-36 digits, or null when they name none. */
export function decodeMove(s: string): string | null {
  if (!/^[0-9a-z]{3}$/.test(s)) return null;
  const x = parseInt(s, 36);
  const a = Math.floor(x / 162);
  const b = Math.floor(x / 2) % 81;
  const c = x % 2;
  const to = squareKey(b);
  if (!to) return null;
  if (a >= 81) {
    const letter = Object.entries(DROP_IDS).find(([, id]) => id === a - 81)?.[0];
    return letter && c === 0 ? `${letter}*${to}` : null;
  }
  const from = squareKey(a);
  if (!from || from === to) return null;
  return `${from}${to}${c ? '+' : ''}`;
}

function movesText(moves: string[]): string {
  return moves.map((m) => encodeMove(m) ?? '').join('');
}

/** The USEN of a line (variations in the order given; empty ones left out). */
export function writeUsen(line: UsenLine): string {
  const fields = line.sfen.trim().split(/\s+/).slice(0, 3);
  const start =
    fields.join(' ') === START_SFEN.split(' ').slice(0, 3).join(' ')
      ? ''
      : fields.join('.').replace(/\//g, '_').replace(/\+/g, 'z');
  let out = `${start}~0.${movesText(line.moves)}.`;
  for (const v of line.variations) if (v.moves.length) out += `~${v.at}.${movesText(v.moves)}.`;
  return out;
}

/** Reads a USEN string; null when it is malformed (the moves' legality is the server's to judge). */
export function readUsen(text: string): UsenLine | null {
  const sections = text.trim().split('~');
  const startText = sections.shift() ?? '';
  if (!sections.length || !/^[0-9A-Za-z_.+-]*$/.test(startText)) return null;
  let sfen = START_SFEN;
  if (startText) {
    const fields = startText.replace(/_/g, '/').replace(/\./g, ' ').replace(/z/g, '+').split(' ');
    if (fields.length < 3 || fields.length > 4) return null;
    sfen = `${fields[0]} ${fields[1]} ${fields[2]} ${fields[3] ?? '1'}`;
  }
  const out: UsenLine = { sfen, moves: [], variations: [] };
  for (let k = 0; k < sections.length; k++) {
    const m = sections[k].match(/^(\d+)\.([0-9a-z]*)\.(.*)$/);
    if (!m || m[2].length % 3 !== 0) return null;
    const moves: string[] = [];
    for (let i = 0; i < m[2].length; i += 3) {
      const mv = decodeMove(m[2].slice(i, i + 3));
      if (!mv) return null;
      moves.push(mv);
    }
    const at = Number(m[1]);
    if (k === 0) out.moves = moves;
    else if (at < out.moves.length && moves.length) out.variations.push({ at, moves });
    else return null;
  }
  return out;
}
