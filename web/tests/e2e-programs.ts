// Browser scenario of programs' games (docs/CSA.md): the test's own code is
// two programs speaking the CSA protocol over TCP (node's `net`), made by the
// operator's `shogi user add NAME --bot` and `shogi user csa-token NAME`. They
// play a few moves with floodgate's `'*` evaluation comments while a person
// finds the game in the lobby and watches it with its clocks, reading the
// program's evaluation and expected line beside the board; one program
// resigns, and the person opens the game from the archive and reads the
// program badges and the evaluations on the review page. The CSA download
// has the comments as they were sent. Then a person meets a program: the
// program waits, the person accepts it in the lobby, plays a few moves on the
// board by clicking the drawn pieces, and resigns; the game is in the archive
// with the program's badge and its evaluations. Screenshots
// test-results/programs-*.png.

import { createConnection, type Socket } from 'node:net';
import type { Browser, Page } from 'playwright-core';

import { clickSquare } from './board';
import {
  BASE,
  CSA_PORT,
  check,
  fetchRetry,
  newPage,
  retry,
  shogiUser,
  shootNarrow,
  sleep,
  test,
  textOf,
} from './e2e-harness';

/** A program on the CSA port: lines sent, lines read in order. */
class Program {
  private buf = '';
  private lines: string[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  private constructor(private sock: Socket) {
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      this.buf += d;
      let i = this.buf.indexOf('\n');
      while (i >= 0) {
        this.lines.push(this.buf.slice(0, i).replace(/\r$/, ''));
        this.buf = this.buf.slice(i + 1);
        i = this.buf.indexOf('\n');
      }
      this.wake?.();
    });
    sock.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static connect(port: number): Promise<Program> {
    return new Promise((res, rej) => {
      const sock = createConnection({ host: '127.0.0.1', port }, () => res(new Program(sock)));
      sock.once('error', rej);
    });
  }

  send(line: string): void {
    this.sock.write(`${line}\n`);
  }

  /** The next line from the server (within `ms`). */
  async line(ms = 15000): Promise<string> {
    const end = Date.now() + ms;
    while (this.lines.length === 0) {
      if (this.closed) throw new Error('the server closed the connection');
      const left = end - Date.now();
      if (left <= 0) throw new Error('no line from the server in time');
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, left);
      });
      this.wake = null;
    }
    return this.lines.shift() ?? '';
  }

  async expect(want: string): Promise<void> {
    const got = await this.line();
    check(got === want, `the server said ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  }

  /** Logs in for `game` and reads the `Game_Summary`: its game id and whether this program is Sente. */
  async login(name: string, token: string, game: string): Promise<string[]> {
    this.send(`LOGIN ${name} ${game},${token}`);
    await this.expect(`LOGIN:${name} OK`);
    await this.expect('BEGIN Game_Summary');
    const summary: string[] = [];
    for (let l = await this.line(); l !== 'END Game_Summary'; l = await this.line()) summary.push(l);
    return summary;
  }

  close(): void {
    this.sock.destroy();
  }
}

/** A program's account made as the operator does; its CSA token (a fresh one from `csa-token`). */
async function programAccount(name: string): Promise<string> {
  await shogiUser(['add', name, '--bot']);
  const out = await shogiUser(['csa-token', name]);
  const line = out.split('\n').find((l) => l.includes('token'));
  const token = line?.trim().split(' ').pop();
  if (!token) throw new Error(`no token in: ${out}`);
  return token;
}

/** The panel beside the board, as a person reads it: who, the score, the line ('' for a part not shown). */
async function panel(page: Page): Promise<{ who: string; score: string; line: string; none: string }> {
  return page.evaluate(() => {
    const text = (id: string) => {
      const el = document.getElementById(id);
      return el?.checkVisibility() ? (el.textContent ?? '') : '';
    };
    return {
      who: text('program-note-who'),
      score: text('program-note-score'),
      line: text('program-note-line'),
      none: text('program-note-none'),
    };
  });
}

/** Waits until the panel reads `want` (the parts given). */
async function panelReads(page: Page, want: Partial<Awaited<ReturnType<typeof panel>>>, what: string): Promise<void> {
  await retry(async () => {
    const got = await panel(page);
    for (const [k, v] of Object.entries(want)) {
      check(got[k as keyof typeof got] === v, `${what}: the panel's ${k} reads ${JSON.stringify(got)}`);
    }
  }, 10000);
}

export async function programScenarios(browser: Browser): Promise<void> {
  await test('programs play over CSA with evaluations, watched live, then reviewed from the archive', async () => {
    if (CSA_PORT === null) throw new Error('no CSA port: start the server with --csa-port (SHOGI_CSA_PORT)');
    const alphaToken = await programAccount('prog_alpha');
    const betaToken = await programAccount('prog_beta');
    const alpha = await Program.connect(CSA_PORT);
    const beta = await Program.connect(CSA_PORT);
    const { context, page } = await newPage(browser);
    try {
      // -B and -W choose the colours; the programs meet on the same name.
      const summaryA = alpha.login('prog_alpha', alphaToken, 'e2e-600-10-B');
      const summaryB = beta.login('prog_beta', betaToken, 'e2e-600-10-W');
      const [sa] = await Promise.all([summaryA, summaryB]);
      const id = sa.find((l) => l.startsWith('Game_ID:'))?.slice('Game_ID:'.length) ?? '';
      check(sa.includes('Your_Turn:+'), `prog_alpha plays Sente: ${sa.join(' | ')}`);
      alpha.send('AGREE');
      beta.send('AGREE');
      await alpha.expect(`START:${id}`);
      await beta.expect(`START:${id}`);
      const move = async (mover: Program, other: Program, line: string) => {
        mover.send(line);
        const echo = new RegExp(`^${line.slice(0, 7).replace('+', '\\+')},T\\d+$`);
        for (const p of [mover, other]) {
          const got = await p.line();
          check(echo.test(got), `the echo of ${line}: ${got}`);
        }
      };

      // A person finds the game among the lobby's games in progress and watches it.
      await page.goto(`${BASE}/`);
      const link = page.locator(`#live-list .live-row[data-id="${id}"] a.live-link`);
      await link.waitFor({ timeout: 15000 });
      check((await link.textContent())?.includes('prog_alpha'), 'the lobby names the programs');
      await link.click();
      await page.waitForURL(new RegExp(`/g/${id}$`));
      await page.waitForSelector('.board sg-board piece');
      await page.waitForSelector('#program-note');
      check((await page.locator('.player-row .bot-badge, .bot-badge').count()) >= 2, 'both programs have their badge');
      const clock = await textOf(page, '.clock[data-side="sente"] .main');
      check(/\d+:\d\d/.test(clock), `the clocks run for a program's game: ${clock}`);
      await panelReads(page, { none: 'No evaluation came with the move shown' }, 'before a move');

      await move(alpha, beta, "+7776FU,'* 35 -3334FU +2726FU");
      await panelReads(
        page,
        { who: '☗ prog_alpha — after move 1', score: '+0.35', line: 'Expected line: 2. P-3d 3. P-2f' },
        'after move 1',
      );
      // Gote's evaluation is from Sente's side too: Gote stands better.
      await move(beta, alpha, "-3334FU,'* -20 +2726FU -8384FU");
      await panelReads(
        page,
        { who: '☖ prog_beta — after move 2', score: '-0.20', line: 'Expected line: 3. P-2f 4. P-8d' },
        'after move 2',
      );
      await move(alpha, beta, '+2726FU');
      await panelReads(page, { none: 'No evaluation came with the move shown', score: '' }, 'a move without one');
      // ShogiHome's way of saying "Gote mates", without the length.
      await move(beta, alpha, "-8384FU,'* -30000 +2625FU -8485FU");
      await panelReads(page, { score: '☖ #?', line: 'Expected line: 5. P-2e 6. P-8e' }, 'after move 4');
      await sleep(500); // the board's animation of the last move
      await shootNarrow(page, 'programs-live', 'the game page of two programs');
      // Stepping back shows the evaluation of the move shown.
      await page.click('#moves .move[data-ply="1"]');
      await panelReads(page, { score: '+0.35', who: '☗ prog_alpha — after move 1' }, 'move 1 looked at again');
      await page.click('#nav-last');
      await panelReads(page, { score: '☖ #?' }, 'back to the live move');

      // prog_alpha, to move and mated, resigns.
      alpha.send('%TORYO');
      for (const [p, outcome] of [
        [alpha, '#LOSE'],
        [beta, '#WIN'],
      ] as const) {
        await p.expect('%TORYO,T0');
        await p.expect('#RESIGN');
        await p.expect(outcome);
      }
      await retry(async () => check((await textOf(page, '#status')).includes('Game over'), 'the game is over'), 10000);

      // The person opens it from the archive, by the link a person sees.
      await page.click('#link-archive');
      const open = page.locator(`.archive-row[data-id="${id}"] a[href="/review/${id}"]`);
      await open.waitFor({ timeout: 10000 });
      check((await page.locator(`.archive-row[data-id="${id}"] .bot-badge`).count()) === 2, 'the archive row badges');
      await open.click();
      await page.waitForURL(new RegExp(`/review/${id}$`));
      await page.waitForSelector('#moves .move[data-ply="4"]');
      const title = await textOf(page, '.review-title');
      check(
        title.includes('prog_alpha') && (await page.locator('.review-title .bot-badge').count()) === 2,
        `the review's heading names both programs with their badges: ${title}`,
      );
      await page.click('#moves .move[data-ply="1"]');
      await panelReads(
        page,
        { who: '☗ prog_alpha — after move 1', score: '+0.35', line: 'Expected line: 2. P-3d 3. P-2f' },
        'the review at move 1',
      );
      await page.keyboard.press('ArrowRight');
      await panelReads(page, { score: '-0.20', line: 'Expected line: 3. P-2f 4. P-8d' }, 'the review at move 2');
      await page.click('#moves .move[data-ply="4"]');
      await panelReads(page, { score: '☖ #?' }, 'the review at move 4');
      await sleep(500);
      await shootNarrow(page, 'programs-review', 'the review of two programs');
      // In Russian, in Russian notation.
      await page.selectOption('#lang', 'ru');
      await page.click('#moves .move[data-ply="2"]');
      await panelReads(
        page,
        { who: '☖ prog_beta — после 2-го хода', score: '-0.20', line: 'Ожидаемый вариант: 3. 2g-2f 4. 8c-8d' },
        'the review in Russian',
      );
      await sleep(500);
      await shootNarrow(page, 'programs-review-ru', 'the review of two programs in Russian');
      await page.selectOption('#lang', 'en');

      // Downloaded as CSA exactly as played, comments and all.
      const csa = (await (await fetchRetry(`${BASE}/api/games/${id}/record?format=csa`)).text()).split('\n');
      const after = (mv: string) => csa[csa.findIndex((l) => l.startsWith(mv)) + 1];
      check(after('+7776FU') === "'* 35 -3334FU +2726FU", `move 1's comment in CSA: ${csa.join(' | ')}`);
      check(after('-3334FU') === "'* -20 +2726FU -8384FU", `move 2's comment in CSA: ${csa.join(' | ')}`);
      check(after('-8384FU') === "'* -30000 +2625FU -8485FU", `move 4's comment in CSA: ${csa.join(' | ')}`);
      check(csa.includes('%TORYO'), `the resignation in CSA: ${csa.join(' | ')}`);
    } finally {
      alpha.close();
      beta.close();
      await context.close();
    }
  });

  await test('a person accepts a waiting program in the lobby, plays, resigns; the archive has its badge and evaluations', async () => {
    if (CSA_PORT === null) throw new Error('no CSA port: start the server with --csa-port (SHOGI_CSA_PORT)');
    const token = await programAccount('prog_gamma');
    const gamma = await Program.connect(CSA_PORT);
    const { context, page } = await newPage(browser);
    try {
      // The program waits for a game as Sente; it is listed as an open challenge.
      gamma.send(`LOGIN prog_gamma e2e-300-10-B,${token}`);
      await gamma.expect('LOGIN:prog_gamma OK');
      await page.goto(`${BASE}/`);
      const row = page.locator('#seek-list .seek-row', { hasText: 'prog_gamma' });
      await row.waitFor({ timeout: 15000 });
      check((await row.locator('.bot-badge').count()) === 1, "the challenge shows the program's badge");
      const rowText = (await row.textContent()) ?? '';
      check(rowText.includes('e2e-300-10'), `the challenge names the program's game: ${rowText}`);
      await shootNarrow(page, 'programs-lobby', "a program's challenge in the lobby");

      // Accepting it: the program is asked and agrees; the person's page opens the game.
      await row.locator('.seek-accept').click();
      await gamma.expect('BEGIN Game_Summary');
      const summary: string[] = [];
      for (let l = await gamma.line(); l !== 'END Game_Summary'; l = await gamma.line()) summary.push(l);
      check(summary.includes('Name+:prog_gamma'), `the program plays Sente: ${summary.join(' | ')}`);
      const id = summary.find((l) => l.startsWith('Game_ID:'))?.slice('Game_ID:'.length) ?? '';
      gamma.send('AGREE');
      await gamma.expect(`START:${id}`);
      await page.waitForURL(new RegExp(`/g/${id}$`), { timeout: 15000 });
      await page.waitForSelector('.board sg-board piece');

      // The program moves with its evaluation; the person answers on the board.
      const echo = async (line: string) => {
        const got = await gamma.line();
        check(new RegExp(`^${line.replace('+', '\\+')},T\\d+$`).test(got), `the echo of ${line}: ${got}`);
      };
      gamma.send("+7776FU,'* 40 -3334FU +2726FU");
      await echo('+7776FU');
      await panelReads(page, { who: '☗ prog_gamma — after move 1', score: '+0.40' }, 'the program moved');
      await clickSquare(page, '3c', 'gote');
      await clickSquare(page, '3d', 'gote');
      await echo('-3334FU');
      gamma.send("+2726FU,'* 55 -8384FU +2625FU");
      await echo('+2726FU');
      await panelReads(page, { score: '+0.55', line: 'Expected line: 4. P-8d 5. P-2e' }, 'the program moved again');
      await clickSquare(page, '8c', 'gote');
      await clickSquare(page, '8d', 'gote');
      await echo('-8384FU');
      check((await page.locator('#chat-input').count()) === 0, 'no chat box: a program reads no chat');
      await sleep(500);
      await shootNarrow(page, 'programs-person', 'a person playing a program');

      // The person resigns; the program is told.
      page.once('dialog', (d) => d.accept());
      await page.click('#resign');
      await gamma.expect('%TORYO,T0');
      await gamma.expect('#RESIGN');
      await gamma.expect('#WIN');
      await retry(async () => check((await textOf(page, '#status')).includes('Game over'), 'the game is over'), 10000);

      // In the archive, by the link a person sees: the program's badge, its evaluations.
      await page.click('#link-archive');
      const open = page.locator(`.archive-row[data-id="${id}"] a[href="/review/${id}"]`);
      await open.waitFor({ timeout: 10000 });
      check((await page.locator(`.archive-row[data-id="${id}"] .bot-badge`).count()) === 1, "the program's badge");
      await open.click();
      await page.waitForURL(new RegExp(`/review/${id}$`));
      await page.waitForSelector('#moves .move[data-ply="4"]');
      await page.click('#moves .move[data-ply="3"]');
      await panelReads(page, { who: '☗ prog_gamma — after move 3', score: '+0.55' }, 'the review at move 3');
      await page.click('#moves .move[data-ply="2"]');
      await panelReads(page, { none: 'No evaluation came with the move shown' }, "the person's move has none");
      await sleep(500);
      await shootNarrow(page, 'programs-person-review', "the review of a person's game with a program");
    } finally {
      gamma.close();
      await context.close();
    }
  });
}
