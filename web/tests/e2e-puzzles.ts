// Browser tests of the puzzles page, called by e2e.ts's main(). Run alone: E2E_ONLY=puzzles npm run test:e2e.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import type { LegalMoves } from '../src/api/api';

import { clickSquare } from './board';
import { BASE, check, fetchRetry, type Json, newPage, shootNarrow, shots, test, textOf } from './e2e-harness';

/** A legal move as the scenarios click it: a board move (`from`) or a drop (`letter`). */
interface Move {
  usi: string;
  to: string;
  from?: string;
  letter?: string;
  promote?: boolean;
  choice?: boolean;
}

/** The puzzles scenarios. */
export async function puzzleTests(browser: Browser): Promise<void> {
  const base = BASE;

  const get = async (path: string): Promise<Json> => {
    const r = await fetchRetry(base + path);
    if (!r.ok) throw new Error(`${path}: ${r.status}`);
    return r.json();
  };
  const post = async (path: string, body: unknown): Promise<{ status: number; data: Json }> => {
    const r = await fetchRetry(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, data: await r.json() };
  };
  const attempt = (id: string, moves: string[]) => post(`/api/puzzles/${id}/attempt`, { moves });

  /** Every legal move of a /api/legal answer, as USI. */
  const usiMoves = (legal: LegalMoves) => {
    const out = [];
    for (const [from, tos] of Object.entries(legal.dests)) {
      for (const to of tos) {
        const p = legal.promotions[from + to];
        if (p !== 'must') out.push({ usi: `${from}${to}`, from, to, promote: false, choice: p === 'may' });
        if (p) out.push({ usi: `${from}${to}+`, from, to, promote: true, choice: p === 'may' });
      }
    }
    for (const [letter, tos] of Object.entries(legal.drops)) {
      for (const to of tos) out.push({ usi: `${letter}*${to}`, letter, to });
    }
    return out;
  };
  const ROLE: Record<string, string> = {
    P: 'pawn',
    L: 'lance',
    N: 'knight',
    S: 'silver',
    G: 'gold',
    B: 'bishop',
    R: 'rook',
  };

  /** Plays `m` on the board by clicks (a drop: the piece in hand, then the square). */
  const clickMove = async (page: Page, m: Move, side: 'sente' | 'gote') => {
    if (m.letter) {
      await page.click(`.hand-bottom-el piece.${side}.${ROLE[m.letter]}`);
      await clickSquare(page, m.to, side);
      return;
    }
    await clickSquare(page, m.from ?? '', side);
    await clickSquare(page, m.to, side);
    if (m.choice) {
      // The promotion dialog: the promoted piece is offered on the square itself.
      await clickSquare(page, m.to, side);
    }
  };

  /** A mate-in-3 puzzle and another mating last move after its first two moves. */
  const findOtherMate = async () => {
    const tried: string[] = [];
    for (let i = 0; i < 20; i++) {
      const next = await get(`/api/puzzles/next?kind=mate&plies=3&exclude=${tried.join(',')}`);
      if (tried.includes(next.id)) break;
      tried.push(next.id);
      const full = await get(`/api/puzzles/${next.id}?solution=1`);
      const first = await attempt(full.id, [full.solution[0]]);
      if (first.data.result !== 'continue') throw new Error(`the stored first move: ${JSON.stringify(first.data)}`);
      const reply = first.data.reply;
      const legal = (await post('/api/legal', { sfen: first.data.sfen })).data;
      const stored = full.solution[1] === reply ? full.solution[2] : null;
      for (const m of usiMoves(legal)) {
        if (m.usi === stored || m.choice) continue;
        const r = await attempt(full.id, [full.solution[0], reply, m.usi]);
        if (r.data.result === 'solved') return { puzzle: full, first: full.solution[0], reply, last: m };
      }
    }
    throw new Error(`no mate-in-3 puzzle with a second mating line among ${tried.join(', ')}`);
  };

  await test('puzzles: a mate-in-3 solved on the board with a mating line other than the stored one', async () => {
    const found = await findOtherMate();
    const { puzzle } = found;
    const side = puzzle.side_to_move;
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/puzzles/${puzzle.id}`);
    await page.waitForSelector('#puzzle-prompt');
    const prompt = await textOf(page, '#puzzle-prompt');
    check(prompt.includes('mate in 2'), `the prompt counts moves: ${prompt}`);
    check((await page.locator(`.board.orientation-${side}`).count()) === 1, `the board seen from the solver (${side})`);
    const legal = usiMoves((await post('/api/legal', { sfen: puzzle.sfen })).data);
    const first = legal.find((m) => m.usi === found.first);
    check(first, `the first move ${found.first} is legal`);
    // The first move typed (keyboard play), the last one clicked on the board.
    await page.fill('#puzzle-move-input', first.usi);
    await page.press('#puzzle-move-input', 'Enter');
    // The server's reply is on the board and the solver is to move again.
    await page.waitForFunction(() => {
      const f = document.querySelector<HTMLElement>('#puzzle-feedback');
      return f?.dataset.status === 'solving' && f.dataset.moves === '2';
    });
    await clickMove(page, found.last, side);
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#puzzle-feedback')?.dataset.status === 'solved',
      null,
      {
        timeout: 15000,
      },
    );
    const text = await textOf(page, '#puzzle-feedback');
    check(text.includes('Solved'), `solved in words: ${text}`);
    check(found.last.usi !== puzzle.solution[2], 'a mating move other than the stored one');
    await shootNarrow(page, 'puzzle-solved', 'the puzzles page');
    await context.close();
  });

  await test('puzzles: a wrong move says why, and the solution can be shown', async () => {
    const p = await get('/api/puzzles/next?kind=mate&plies=3');
    const full = await get(`/api/puzzles/${p.id}?solution=1`);
    const legal = usiMoves((await post('/api/legal', { sfen: p.sfen })).data);
    // A quiet move: it gives no check, so the server calls it wrong with "no_check".
    let quiet = null;
    for (const m of legal) {
      if (m.choice || m.usi === full.solution[0]) continue;
      const r = await attempt(p.id, [m.usi]);
      if (r.data.result === 'wrong' && r.data.why === 'no_check') {
        quiet = m;
        break;
      }
    }
    check(quiet, 'a move that gives no check');
    const { context, page } = await newPage(browser, 'ru-RU');
    await page.goto(`${base}/puzzles/${p.id}`);
    await page.waitForSelector('#puzzle-prompt');
    await clickMove(page, quiet, p.side_to_move);
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#puzzle-feedback')?.dataset.status === 'wrong',
    );
    const text = await textOf(page, '#puzzle-feedback');
    check(text.includes('не объявляет шах'), `the reason in Russian: ${text}`);
    await page.screenshot({ path: join(shots, 'puzzle-wrong-russian.png') });
    await page.click('#puzzle-show');
    await page.waitForSelector('#puzzle-solution');
    const steps = await page.locator('#puzzle-solution .move').count();
    check(steps === full.solution.length, `the solution's ${full.solution.length} moves listed: ${steps}`);
    await page.click('#puzzle-retry');
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#puzzle-feedback')?.dataset.status === 'solving',
    );
    await context.close();
  });

  await test('puzzles: the daily puzzle on the start screen opens it', async () => {
    const daily = await get('/api/puzzles/daily');
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/`);
    await page.waitForSelector('#daily-puzzle');
    const text = await textOf(page, '#daily-puzzle');
    check(text.includes('Puzzle of the day'), `the card: ${text}`);
    await shootNarrow(page, 'start-daily-puzzle', 'the start screen with the daily puzzle');
    await page.click('#daily-puzzle');
    await page.waitForURL(`${base}/puzzles/${daily.id}`);
    await page.waitForSelector('#puzzle-prompt');
    await page.click('#link-puzzles');
    await page.waitForSelector('#puzzle-prompt');
    await shootNarrow(page, 'puzzles', 'the puzzles page');
    await context.close();
  });
}
