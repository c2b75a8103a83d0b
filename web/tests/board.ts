// The board as a person sees it, for the browser tests: the squares as they
// are drawn, the coordinate labels printed around them, and the pieces drawn
// on them. A square is found the way a player finds it, where the column
// labelled with its file meets the row labelled with its rank; a piece is
// clicked at the middle of where it is drawn (never at a square centre
// computed from the board's box), so a piece drawn in the wrong place or at
// the wrong size makes the click miss and the test fail.

import type { Page } from 'playwright-core';

/** A box drawn on the screen, and its middle. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  cx: number;
  cy: number;
}
/** A coordinate label printed around the board. */
export interface Label extends Box {
  text: string;
}
/** A piece drawn on the board. */
export interface DrawnPiece extends Box {
  color: 'sente' | 'gote';
  role: string | undefined;
  glyph: string;
}
/** The board as drawn: its squares, its labels, its pieces. */
export interface DrawnBoard {
  squares: Box[];
  files: Label[];
  ranks: Label[];
  pieces: DrawnPiece[];
}
type Side = 'sente' | 'gote';

/** What a rank letter may be labelled on a board: `a`-`i`, `一`-`九` or `1`-`9`. */
const RANK_LABELS = ['abcdefghi', '一二三四五六七八九', '123456789'];

/** How far a drawn piece may be from a square's size and centre, as a share of the square. */
const TOLERANCE = 0.15;

/**
 * Reads the board inside `scope` as drawn: the 81 squares, the file and rank
 * labels, and every piece on the board (not those being dragged or faded out)
 * with its kind and colour and its box on the screen.
 */
export async function drawnBoard(page: Page, scope = '.board'): Promise<DrawnBoard> {
  // Pieces slide for a moment after a move: read the board once they stand still.
  await page.waitForFunction((s) => {
    const wrap = document.querySelector(s);
    return (
      !!wrap && wrap.querySelectorAll('sg-squares sq').length === 81 && !wrap.querySelector('sg-pieces piece.anim')
    );
  }, scope);
  return page.evaluate((s): DrawnBoard => {
    const wrap = document.querySelector(s);
    if (!wrap) throw new Error(`no board ${s}`);
    const box = (el: Element): Box => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height, cx: r.x + r.width / 2, cy: r.y + r.height / 2 };
    };
    const labels = (sel: string): Label[] =>
      [...wrap.querySelectorAll(sel)].map((c) => ({ text: (c.textContent ?? '').trim(), ...box(c) }));
    const pieces = [...wrap.querySelectorAll('sg-pieces piece')]
      .filter(
        (p) =>
          !p.classList.contains('ghost') && !p.classList.contains('fading') && getComputedStyle(p).display !== 'none',
      )
      .map(
        (p): DrawnPiece => ({
          color: p.classList.contains('gote') ? 'gote' : 'sente',
          role: [...p.classList].find((c) => c !== 'sente' && c !== 'gote' && c !== 'anim'),
          glyph: getComputedStyle(p, '::before').content,
          ...box(p),
        }),
      );
    return {
      squares: [...wrap.querySelectorAll('sg-squares sq')].map(box),
      files: labels('coords.files coord'),
      ranks: labels('coords.ranks coord'),
      pieces,
    };
  }, scope);
}

const inside = (b: Box, x: number, y: number) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;

/** The drawn square of `key` (USI, `7g`): where the file label `7` meets the rank label `g`/`七`/`7`. */
export function squareOf(board: DrawnBoard, key: string): Box {
  const file = board.files.find((l) => l.text === key[0]);
  const r = 'abcdefghi'.indexOf(key[1]);
  const rank = board.ranks.find((l) => RANK_LABELS.some((labels) => l.text === labels[r]));
  if (!file || !rank) {
    throw new Error(
      `no labels for ${key}: files [${board.files.map((l) => l.text)}], ranks [${board.ranks.map((l) => l.text)}]`,
    );
  }
  const square = board.squares.find((b) => inside(b, file.cx, rank.cy));
  if (!square) throw new Error(`the labels of ${key} meet outside the board`);
  return square;
}

/** The piece drawn on `square`: the one whose middle lies in it, if any. */
export function pieceOn(board: Pick<DrawnBoard, 'pieces'>, square: Box): DrawnPiece | undefined {
  return board.pieces.find((p) => inside(square, p.cx, p.cy));
}

/**
 * What is wrong with the drawing: every piece must be about a square wide
 * and high, centred on one of `board.squares`, and no two pieces on one
 * square. An empty list when the board is drawn right.
 */
export function drawingFaults(board: Pick<DrawnBoard, 'squares' | 'pieces'>): string[] {
  const faults: string[] = [];
  const taken = new Map<string, string>();
  for (const p of board.pieces) {
    const square = board.squares.reduce((best, b) =>
      Math.hypot(b.cx - p.cx, b.cy - p.cy) < Math.hypot(best.cx - p.cx, best.cy - p.cy) ? b : best,
    );
    const what = `${p.color} ${p.role} at (${Math.round(p.cx)}, ${Math.round(p.cy)}) ${Math.round(p.w)}×${Math.round(p.h)}`;
    if (Math.abs(p.w - square.w) > TOLERANCE * square.w || Math.abs(p.h - square.h) > TOLERANCE * square.h) {
      faults.push(`${what}: not a square's size (${Math.round(square.w)}×${Math.round(square.h)})`);
    }
    if (Math.hypot(p.cx - square.cx, p.cy - square.cy) > TOLERANCE * square.w) {
      faults.push(`${what}: not centred on a square`);
    }
    const k = `${square.x},${square.y}`;
    if (taken.has(k)) faults.push(`${what}: on the same square as ${taken.get(k)}`);
    taken.set(k, what);
  }
  return faults;
}

/** Throws unless every piece inside `scope` is drawn a square wide on its square. */
export async function checkDrawing(page: Page, what: string, scope = '.board'): Promise<void> {
  const board = await drawnBoard(page, scope);
  const faults = drawingFaults(board);
  if (board.pieces.length === 0) faults.push('no piece drawn');
  if (faults.length)
    throw new Error(
      `${what}: ${faults.slice(0, 4).join('; ')}${faults.length > 4 ? ` (+${faults.length - 4} more)` : ''}`,
    );
}

/** SFEN board letters and the piece kinds the board draws. */
const SFEN_ROLES: Record<string, string> = {
  p: 'pawn',
  l: 'lance',
  n: 'knight',
  s: 'silver',
  g: 'gold',
  b: 'bishop',
  r: 'rook',
  k: 'king',
  '+p': 'tokin',
  '+l': 'promotedlance',
  '+n': 'promotedknight',
  '+s': 'promotedsilver',
  '+b': 'horse',
  '+r': 'dragon',
};

/** The pieces of an SFEN's board part, by USI square: `{ '5i': { color: 'sente', role: 'king' } }`. */
export function sfenPieces(sfen: string): Record<string, { color: Side; role: string }> {
  const out: Record<string, { color: Side; role: string }> = {};
  sfen
    .split(' ')[0]
    .split('/')
    .forEach((row, r) => {
      let file = 9;
      for (let i = 0; i < row.length; i++) {
        const c = row[i];
        if (/\d/.test(c)) {
          file -= Number(c);
          continue;
        }
        const letter = c === '+' ? c + row[++i] : c;
        const lower = letter.toLowerCase();
        out[`${file}${'abcdefghi'[r]}`] = { color: letter === lower ? 'gote' : 'sente', role: SFEN_ROLES[lower] };
        file--;
      }
    });
  return out;
}

/**
 * Throws unless the board inside `scope` draws exactly the position `sfen`:
 * on the square its labels name, each piece of the position and nothing else.
 */
export async function checkPosition(page: Page, sfen: string, what: string, scope = '.board'): Promise<void> {
  const board = await drawnBoard(page, scope);
  const want = sfenPieces(sfen);
  const wrong: string[] = [];
  for (const file of '123456789') {
    for (const rank of 'abcdefghi') {
      const key = file + rank;
      const p = pieceOn(board, squareOf(board, key));
      const got = p ? `${p.color} ${p.role}` : 'empty';
      const exp = want[key] ? `${want[key].color} ${want[key].role}` : 'empty';
      if (got !== exp) wrong.push(`${key}: ${got}, not ${exp}`);
    }
  }
  if (wrong.length)
    throw new Error(
      `${what}: ${wrong.slice(0, 4).join('; ')}${wrong.length > 4 ? ` (+${wrong.length - 4} more)` : ''}`,
    );
}

/**
 * Clicks square `key` as a person does: on the piece drawn there (checked to
 * be a square's size and on the square first), or on the drawn empty
 * square. `orientation`, when given, is checked against the labels (Sente
 * below: file 9 on the left).
 */
export async function clickSquare(page: Page, key: string, orientation?: Side | null, scope = '.board'): Promise<void> {
  const board = await drawnBoard(page, scope);
  if (orientation) {
    const nine = board.files.find((l) => l.text === '9');
    const one = board.files.find((l) => l.text === '1');
    if (nine && one && nine.cx < one.cx !== (orientation === 'sente')) {
      throw new Error(`the board is not seen from ${orientation}'s side`);
    }
  }
  const square = squareOf(board, key);
  const piece = pieceOn(board, square);
  if (piece) {
    const faults = drawingFaults({ squares: [square], pieces: [piece] });
    if (faults.length) throw new Error(`the piece on ${key}: ${faults.join('; ')}`);
    await page.mouse.click(piece.cx, piece.cy);
  } else {
    await page.mouse.click(square.cx, square.cy);
  }
}

/** The middle of the drawn square `key`, found by its labels (a drop target, a square to point at). */
export async function squareCenter(
  page: Page,
  key: string,
  _orientation?: Side | null,
  scope = '.board',
): Promise<{ x: number; y: number }> {
  const square = squareOf(await drawnBoard(page, scope), key);
  return { x: square.cx, y: square.cy };
}

/** Drags the piece drawn on `from` to the drawn square `to`, as a person does with the mouse. */
export async function dragSquare(
  page: Page,
  from: string,
  to: string,
  _orientation?: Side | null,
  scope = '.board',
): Promise<void> {
  const board = await drawnBoard(page, scope);
  const piece = pieceOn(board, squareOf(board, from));
  if (!piece) throw new Error(`no piece drawn on ${from}`);
  const target = squareOf(board, to);
  await page.mouse.move(piece.cx, piece.cy);
  await page.mouse.down();
  await page.mouse.move((piece.cx + target.cx) / 2, (piece.cy + target.cy) / 2, { steps: 4 });
  await page.mouse.move(target.cx, target.cy, { steps: 4 });
  await page.mouse.up();
}

/**
 * Clicks the square in column `col` and row `row` (0-8 from the top left)
 * of a board drawn without labels, found by counting the drawn squares as
 * a person does (the coordinates trainer).
 */
export async function clickCountedSquare(page: Page, col: number, row: number, scope = '.board'): Promise<void> {
  const board = await drawnBoard(page, scope);
  const byRow = [...board.squares].sort((a, b) => a.cy - b.cy);
  const square = byRow.slice(row * 9, row * 9 + 9).sort((a, b) => a.cx - b.cx)[col];
  if (!square) throw new Error(`no square in column ${col}, row ${row}`);
  await page.mouse.click(square.cx, square.cy);
}
