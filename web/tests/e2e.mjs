// Browser tests: Debian's Chromium driven by playwright-core against a running
// shogi server.
//
//   SHOGI_URL=http://127.0.0.1:8080 node tests/e2e.mjs
//
// Without SHOGI_URL the script starts a server itself with the command in
// SHOGI_SERVE_CMD ({port} and {db} are replaced), by default
// `$SHOGI_BIN serve --port {port} --db {db} --no-rate-limits` when SHOGI_BIN
// names the `shogi` binary, else `cargo run --quiet -p shogi-cli -- serve
// --port {port} --db {db} --no-rate-limits`, run from the repository root (the
// tests register 7 accounts from one address; the limit is 5 an hour). Screenshots go to web/test-results/.
// The last line is `N passed, M failed`; the exit status is 1 on failure.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { learnTests } from './e2e-learn.mjs';
import { checkDrawing, checkPosition, clickCountedSquare, clickSquare, dragSquare, squareCenter } from './board.mjs';

import { puzzleTests } from './e2e-puzzles.mjs';
import { analysisScenarios } from './e2e-analysis.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, '..');
const repoDir = resolve(webDir, '..');
const shots = join(webDir, 'test-results');
mkdirSync(shots, { recursive: true });

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---------- server ----------

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

async function waitForHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await sleep(300);
  }
  throw new Error(`server at ${url} did not answer within ${ms} ms`);
}

async function startServer() {
  if (process.env.SHOGI_URL) return { url: process.env.SHOGI_URL.replace(/\/$/, ''), stop: async () => {} };
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'shogi-e2e-'));
  const cmd = (
    process.env.SHOGI_SERVE_CMD ??
    (process.env.SHOGI_BIN
      ? `'${process.env.SHOGI_BIN}' serve --port {port} --db {db} --no-rate-limits`
      : 'cargo run --quiet -p shogi-cli -- serve --port {port} --db {db} --no-rate-limits')
  )
    .replaceAll('{port}', String(port))
    .replaceAll('{db}', join(dir, 'games.db'));
  console.log(`starting: ${cmd}`);
  const child = spawn('sh', ['-c', `exec ${cmd}`], { cwd: repoDir, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, 15 * 60 * 1000);
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => {
        if (child.exitCode !== null) r();
        else child.once('exit', r);
        setTimeout(r, 8000);
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------- helpers ----------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let BASE = '';

/** fetch, retried on network errors (a reused keep-alive connection the server just closed). */
async function fetchRetry(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 4) throw e;
      await sleep(200 * attempt);
    }
  }
}

async function api(path) {
  const r = await fetchRetry(BASE + path);
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function waitState(id, pred, what, ms = 15000) {
  const end = Date.now() + ms;
  let s;
  while (Date.now() < end) {
    s = await api(`/api/games/${id}`);
    if (pred(s)) return s;
    await sleep(150);
  }
  throw new Error(`timed out waiting for ${what}; moves=${s?.moves?.join(' ')}`);
}

async function post(path, body) {
  const r = await fetchRetry(BASE + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

/** Opens a game created through the API, holding its seat as the app would. */
async function openWithToken(page, created) {
  await page.goto(`${BASE}/`);
  await page.evaluate(([id, token]) => localStorage.setItem(`shogi.token.${id}`, token), [created.id, created.token]);
  await page.goto(`${BASE}/g/${created.id}`);
  await page.waitForSelector('.board sg-board piece');
  await page.waitForSelector('#seat');
}

function gameId(page) {
  const m = new URL(page.url()).pathname.match(/^\/g\/([0-9a-f]{16})/);
  if (!m) throw new Error(`not on a game page: ${page.url()}`);
  return m[1];
}

// ---------- the tests ----------

const results = [];
const cspViolations = [];

async function test(name, fn) {
  if (process.env.E2E_ONLY && !name.includes(process.env.E2E_ONLY)) return;
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${e?.stack ?? e}`);
  }
}

/** Runs `fn` until it does not throw, for at most `ms` (something the page shows once its data arrives). */
async function retry(fn, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() > end) throw e;
      await sleep(100);
    }
  }
}

function check(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function newPage(browser, locale = 'en-US') {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`  [page error] ${e.message}`));
  // The server's Content-Security-Policy must not block anything the client does.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) {
      cspViolations.push(m.text());
      console.log(`  [CSP] ${m.text()}`);
    }
  });
  return { context, page };
}

/** Screenshots at 1280×900 and 390×844, and no horizontal scroll at 360 px; back to 1280×900. */
async function shootNarrow(page, name, what) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(shots, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 360, `no horizontal scroll on ${what} at 360 px: ${width}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function createFromStartScreen(page, choices) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#start-form');
  for (const [name, value] of Object.entries(choices)) {
    await page.selectOption(`#start-form select[name="${name}"]`, value);
  }
  await page.click('#create');
  await page.waitForURL(/\/g\/[0-9a-f]{16}$/);
  await page.waitForSelector('.board sg-board piece');
}

async function main() {
  const server = await startServer();
  BASE = server.url;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    await learnTests({
      browser,
      base: BASE,
      test,
      check,
      newPage,
      shootNarrow,
      clickSquare,
      clickCountedSquare,
      checkDrawing,
      checkPosition,
      shots,
      join,
    });
    await test('every board draws each piece a square wide on its square, at 1280 and 390 px', async () => {
      const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
      const lessons = JSON.parse(readFileSync(join(webDir, 'src/learn/lessons/lessons.json'), 'utf8'));
      const puzzle = await api('/api/puzzles/next');
      const imported = await fetchRetry(`${BASE}/api/import?save=1`, {
        method: 'POST',
        body: 'V2.2\nN+Hanako\nN-Taro\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n',
      }).then((r) => r.json());
      // Each board with the position it must draw (null: any position, drawn right).
      const boards = [
        {
          name: 'lesson',
          path: '/learn/board',
          sfen: lessons.lessons[0].exercises[0].sfen,
          ready: '.learn-side[data-ready="yes"]',
        },
        { name: 'puzzle', path: `/puzzles/${puzzle.id}`, sfen: puzzle.sfen, ready: '.board sg-pieces piece' },
        { name: 'analysis', path: '/analysis', sfen: START, ready: '.board sg-pieces piece' },
        { name: 'editor', path: '/analysis?edit', sfen: START, ready: '.editor .board sg-pieces piece' },
        { name: 'review', path: `/review/${imported.id}`, sfen: null, ready: '.board sg-pieces piece' },
        { name: 'game', path: null, sfen: START, ready: '.board sg-pieces piece' },
      ];
      const { context, page } = await newPage(browser, 'ru-RU');
      for (const b of boards) {
        if (b.path) await page.goto(BASE + b.path);
        else await createFromStartScreen(page, { mode: 'local', time: 'none' });
        await page.waitForSelector(b.ready);
        for (const [width, height] of [
          [1280, 900],
          [390, 844],
        ]) {
          await page.setViewportSize({ width, height });
          const what = `the ${b.name} board at ${width} px`;
          // The position arrives after the page: wait for it to be drawn, then check the drawing.
          if (b.sfen) await retry(() => checkPosition(page, b.sfen, what), 5000);
          await checkDrawing(page, what);
          await page.screenshot({ path: join(shots, `board-${b.name}-${width}.png`), fullPage: width < 1000 });
        }
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await context.close();
    });

    await test('an unknown page or game: a page in the UI language with a link home', async () => {
      const { context, page } = await newPage(browser, 'ru-RU');
      const res = await page.goto(`${BASE}/games`);
      check(res.status() === 404, `status of /games: ${res.status()}`);
      await page.waitForSelector('#not-found');
      const pageText = await page.textContent('#not-found h2');
      check(pageText.includes('Такой страницы нет'), `Russian page text: ${pageText}`);
      await page.screenshot({ path: join(shots, 'not-found-page.png') });
      await page.goto(`${BASE}/review/0123456789abcdef`);
      await page.waitForSelector('#not-found');
      const gameText = await page.textContent('#not-found h2');
      check(gameText.includes('Такой партии нет'), `Russian game text: ${gameText}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(shots, 'not-found-game-390.png') });
      await page.click('#go-home');
      await page.waitForSelector('#start-form');
      const api = await fetchRetry(`${BASE}/api/no-such-route`);
      check(
        api.status === 404 && typeof (await api.json()).error === 'string',
        `API 404 is the JSON error: ${api.status}`,
      );
      await context.close();
    });

    await test('the start screen offers the game settings', async () => {
      const { context, page } = await newPage(browser);
      await page.goto(`${BASE}/`);
      await page.waitForSelector('#start-form');
      const handicaps = await page.locator('select[name="handicap"] option').count();
      check(handicaps === 16, `16 handicaps, got ${handicaps}`);
      const times = await page.locator('select[name="time"] option').allTextContents();
      check(times.length === 6, `6 time controls: ${times}`);
      await page.selectOption('select[name="time"]', 'custom');
      check(await page.locator('input[name="byoSec"]').isVisible(), 'custom time fields shown');
      check((await page.inputValue('select[name="impasse"]')) === '27', 'impasse 27 against the computer');
      await page.selectOption('select[name="mode"]', 'friend');
      check((await page.inputValue('select[name="impasse"]')) === 'count24', 'impasse count24 between people');
      await page.screenshot({ path: join(shots, 'start.png') });
      await context.close();
    });

    await test('handicap: the side labels and a note say who moves first (start screen and lobby, English and Japanese)', async () => {
      for (const [locale, even, taker, giver, note] of [
        ['en-US', 'moves first', 'takes the handicap', 'gives the handicap', 'moves first'],
        ['ja-JP', '先手', '下手', '上手', '上手（後手）が先に指します'],
      ]) {
        const { context, page } = await newPage(browser, locale);
        await page.goto(`${BASE}/`);
        await page.waitForSelector('#start-form');
        await page.waitForSelector('#seek-form');
        const label = (sel) => page.textContent(sel);
        check(!(await page.isVisible('#handicap-note')), `${locale}: no handicap note in an even game`);
        check(
          (await label('#start-form select[name="side"] option[value="sente"]')).includes(even),
          `${locale}: even game, Sente's label`,
        );
        await page.selectOption('#start-form select[name="handicap"]', 'bishop');
        await page.waitForSelector('#handicap-note', { state: 'visible' });
        check((await label('#handicap-note')).includes(note), `${locale}: the note: ${await label('#handicap-note')}`);
        const sente = await label('#start-form select[name="side"] option[value="sente"]');
        const gote = await label('#start-form select[name="side"] option[value="gote"]');
        check(
          sente.includes(taker) && !sente.includes('moves first') && !sente.includes('先に'),
          `${locale}: Sente takes the handicap: ${sente}`,
        );
        check(gote.includes(giver), `${locale}: Gote gives the handicap: ${gote}`);
        if (locale === 'en-US') check(gote.includes('moves first'), `Gote moves first: ${gote}`);
        // Back to even: the labels and the note follow.
        await page.selectOption('#start-form select[name="handicap"]', 'even');
        check(!(await page.isVisible('#handicap-note')), `${locale}: the note goes with the handicap`);
        check(
          !(await label('#start-form select[name="side"] option[value="sente"]')).includes(taker),
          `${locale}: even labels again`,
        );
        await page.selectOption('#start-form select[name="handicap"]', 'rook');
        // The lobby's seek form: the same labels once a handicap is chosen.
        check(!(await label('#seek-side option[value="gote"]')).includes(giver), `${locale}: lobby, even game`);
        await page.selectOption('#seek-handicap', 'rook');
        await page.waitForSelector('#seek-handicap-note', { state: 'visible' });
        check(
          (await label('#seek-side option[value="sente"]')).includes(taker),
          `${locale}: lobby, Sente takes the handicap`,
        );
        check(
          (await label('#seek-side option[value="gote"]')).includes(giver),
          `${locale}: lobby, Gote gives the handicap`,
        );
        check((await label('#seek-handicap-note')).includes(note), `${locale}: lobby note`);
        await shootNarrow(
          page,
          locale === 'en-US' ? 'start-handicap' : 'start-handicap-japanese',
          'the start screen with a handicap',
        );
        await context.close();
      }
    });

    await test('play the computer through the board: moves, reload, notations, stepping', async () => {
      const { context, page } = await newPage(browser);
      await createFromStartScreen(page, { mode: 'ai', level: '1', side: 'sente', time: '30+30' });
      const id = gameId(page);
      check((await page.textContent('#seat')).includes('Sente'), 'seated as Sente');
      await page.waitForSelector('.player.bottom .conn.on');
      check((await page.locator('.player.top .conn').count()) === 0, 'no connection dot for the computer');
      check((await page.locator('.player.bottom .conn').count()) === 1, 'one connection dot for the player');
      // First move by clicks.
      await clickSquare(page, '7g', 'sente');
      await clickSquare(page, '7f', 'sente');
      let s = await waitState(id, (s) => s.moves.length >= 2, 'the computer to answer 7g7f');
      check(s.moves[0] === '7g7f', `first move 7g7f, got ${s.moves[0]}`);
      await page.waitForSelector('#moves .move[data-ply="2"]');
      const firstText = await page.textContent('#moves .move[data-ply="1"]');
      check(firstText.includes('P-7f'), `western notation P-7f: ${firstText}`);
      await page.screenshot({ path: join(shots, 'ai-first-move.png') });
      // Reload mid-game: the seat is kept; the next move is made by dragging.
      await page.reload();
      await page.waitForSelector('.board sg-board piece');
      await page.waitForSelector('#moves .move[data-ply="2"]');
      check((await page.textContent('#seat')).includes('Sente'), 'the seat survives a reload');
      s = await api(`/api/games/${id}`);
      const [from, tos] = Object.entries(s.dests).find(([f]) => f === '2g') ?? Object.entries(s.dests)[0];
      const to = tos[0];
      await dragSquare(page, from, to, 'sente');
      s = await waitState(id, (x) => x.moves.length >= 4, 'the move after the reload and the answer');
      check(s.moves[2].startsWith(from + to), `played ${from}${to} after the reload, got ${s.moves[2]}`);
      await page.waitForSelector('#moves .move[data-ply="4"]');
      // Step back through the moves with the keyboard and buttons.
      await page.keyboard.press('ArrowLeft');
      const current = await page.getAttribute('#moves .move.current', 'data-ply');
      check(current === '3', `ArrowLeft shows ply 3, got ${current}`);
      await page.click('#nav-first');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '0', 'first shows the start');
      await page.waitForFunction(() => document.querySelectorAll('sg-pieces piece:not(.fading)').length === 40, null, {
        timeout: 5000,
      });
      const pawn7g = await page.evaluate(() => [...document.querySelectorAll('sg-pieces piece.sente.pawn')].length);
      check(pawn7g === 9, `the start position is shown (${pawn7g} pawns)`);
      await page.click('#nav-next');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '1', 'next shows move 1');
      await page.click('#nav-last');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '4', 'last shows the latest');
      await page.selectOption('#notation', 'japanese');
      const ja = await page.textContent('#moves .move[data-ply="1"]');
      check(ja.includes('▲７六歩'), `Japanese notation: ${ja}`);
      await page.selectOption('#notation', 'russian');
      const ru = await page.textContent('#moves .move[data-ply="1"]');
      check(ru.includes('7g-7f'), `Russian notation: ${ru}`);
      await page.selectOption('#piece-set', 'intl');
      await page.screenshot({ path: join(shots, 'ai-international.png') });
      await page.selectOption('#piece-set', 'kanji');
      await context.close();
    });

    await test('against the computer: a promotion choice and a drop from the hand', async () => {
      const { context, page } = await newPage(browser);
      // Sente's silver on 4d may promote on 4c; both sides have a pawn in hand.
      const g = await post('/api/games', {
        mode: 'ai',
        side: 'sente',
        sfen: '4k4/9/9/5S3/9/9/9/9/4K4 b Pp 1',
        ai: { level: 1 },
      });
      await openWithToken(page, g);
      const id = g.id;
      await dragSquare(page, '4d', '4c', 'sente');
      await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
      await page.screenshot({ path: join(shots, 'ai-promotion-choice.png') });
      await page.click('sg-promotion-choices piece.promotedsilver');
      let s = await waitState(id, (x) => x.moves.length >= 2, 'the promotion and the answer');
      check(s.moves[0] === '4d4c+', `promoted 4d4c+, got ${s.moves[0]}`);
      await page.waitForSelector('#moves .move[data-ply="2"]');
      // Drop the pawn from the hand by clicks.
      const to = s.drops.P.includes('5e') ? '5e' : s.drops.P[0];
      await page.click('.hand-bottom-el piece.sente.pawn');
      await clickSquare(page, to, 'sente');
      s = await waitState(id, (x) => x.moves.length >= 3, 'the drop');
      check(s.moves[2] === `P*${to}`, `dropped P*${to}, got ${s.moves[2]}`);
      await page.waitForSelector('#moves .move[data-ply="3"]');
      const text = await page.textContent('#moves .move[data-ply="3"]');
      check(text.includes(`P*${to}`), `western drop text: ${text}`);
      await page.screenshot({ path: join(shots, 'ai-after-drop.png') });
      await context.close();
    });

    await test('a friend joins by the invite link; a spectator cannot move; Russian', async () => {
      const a = await newPage(browser);
      await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: '10+30' });
      const id = gameId(a.page);
      const link = await a.page.inputValue('#invite-link');
      check(link.includes(`/g/${id}?join=`), `invite link: ${link}`);
      await a.page.screenshot({ path: join(shots, 'friend-waiting.png') });

      const b = await newPage(browser);
      await b.page.goto(link);
      // A guest says their name first (optional), then takes the seat.
      await b.page.waitForSelector('#join-seat');
      await b.page.fill('#join-name', 'Friend');
      await b.page.click('#join-seat');
      await b.page.waitForSelector('.board sg-board piece');
      await b.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('Gote'));
      check(!b.page.url().includes('join='), 'the join code is dropped from the address');
      const s0 = await waitState(id, (s) => s.seats.gote, 'the friend to take the seat');
      check(
        s0.players?.gote?.name === 'Friend' && s0.players.gote.guest === true,
        `the guest's name: ${JSON.stringify(s0.players)}`,
      );
      await a.page.waitForFunction(() => document.querySelector('.player.top .name')?.textContent?.includes('Friend'));
      await a.page.waitForSelector('#invite-link', { state: 'detached' });

      await dragSquare(a.page, '7g', '7f', 'sente');
      await waitState(id, (s) => s.moves.length === 1, "Sente's move");
      await b.page.waitForSelector('#moves .move[data-ply="1"]');
      await clickSquare(b.page, '3c', 'gote');
      await clickSquare(b.page, '3d', 'gote');
      let s = await waitState(id, (s) => s.moves.length === 2, "Gote's move");
      check(s.moves[1] === '3c3d', `gote played 3c3d, got ${s.moves[1]}`);
      await a.page.waitForSelector('#moves .move[data-ply="2"]');
      await b.page.screenshot({ path: join(shots, 'friend-gote-view.png') });

      const c = await newPage(browser, 'ru-RU');
      await c.page.goto(`${BASE}/g/${id}`);
      await c.page.waitForSelector('.board sg-board piece');
      await c.page.waitForSelector('#moves .move[data-ply="2"]');
      const seat = await c.page.textContent('#seat');
      check(seat.includes('наблюдаете'), `spectator text in Russian (from the browser language): ${seat}`);
      // Try to move: nothing is selectable and nothing is sent.
      await clickSquare(c.page, '2g', 'sente');
      check((await c.page.locator('sq.dest').count()) === 0, 'no destinations for a spectator');
      await dragSquare(c.page, '2g', '2f', 'sente');
      await sleep(500);
      s = await api(`/api/games/${id}`);
      check(s.moves.length === 2, 'the spectator moved nothing');
      // Language switch.
      await c.page.selectOption('#lang', 'en');
      check((await c.page.textContent('#seat')).includes('watching'), 'switched to English');
      await c.page.selectOption('#lang', 'ru');
      const status = await c.page.textContent('#status');
      check(status.includes('Сэнтэ ходит'), `Russian status: ${status}`);
      await c.page.screenshot({ path: join(shots, 'spectator-russian.png') });

      // Sente resigns; everybody sees the result.
      a.page.once('dialog', (d) => d.accept());
      await a.page.click('#resign');
      s = await waitState(id, (s) => s.status.over, 'the resignation');
      check(s.status.winner === 'gote' && s.status.reason === 'resign', 'gote wins by resignation');
      await c.page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('сдача'));
      await b.page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('resignation'));
      await c.page.screenshot({ path: join(shots, 'spectator-result.png') });
      for (const p of [a, b, c]) await p.context.close();
    });

    await test('players: register, a rated challenge accepted live in the lobby, names by the clocks, a spectator from the live list, resign, profiles, KIF names', async () => {
      const stamp = Date.now().toString(36).slice(-6);
      const nameA = `Анна_${stamp}`;
      const nameB = `Bob-${stamp}`;
      const password = 'correct horse battery';
      const a = await newPage(browser);
      const b = await newPage(browser);
      const c = await newPage(browser);
      const register = async (page, name) => {
        await page.goto(`${BASE}/`);
        await page.click('#register-open');
        await page.fill('#login-name', name);
        await page.fill('#login-password', password);
        await page.click('#login-submit');
        await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
      };
      await register(a.page, nameA);
      await register(b.page, nameB);
      // Both are on the start screen with the lobby open; A posts a rated 30 min + 30 s challenge.
      await a.page.waitForSelector('#seek-form');
      await b.page.waitForSelector('#lobby #seek-list-box');
      await a.page.selectOption('#seek-time', '30+30');
      await a.page.selectOption('#seek-rated', 'rated');
      await a.page.click('#seek-submit');
      await a.page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('shogi.seek.')));
      const seekId = await a.page.evaluate(() =>
        Object.keys(localStorage)
          .find((k) => k.startsWith('shogi.seek.'))
          .slice('shogi.seek.'.length),
      );
      await a.page.waitForSelector(`.seek-row[data-id="${seekId}"] .seek-cancel`);
      // B sees it arrive without a reload.
      const row = `.seek-row[data-id="${seekId}"]`;
      await b.page.waitForSelector(`${row} .seek-accept`, { timeout: 10000 });
      const rowText = await b.page.textContent(row);
      check(
        rowText.includes(nameA) && rowText.includes('30 min + 30 s') && rowText.includes('Rated'),
        `the seek row: ${rowText}`,
      );
      check(rowText.includes('1500?'), `a new account's provisional rating: ${rowText}`);
      await b.page.screenshot({ path: join(shots, 'lobby.png') });
      await b.page.setViewportSize({ width: 390, height: 844 });
      await b.page.screenshot({ path: join(shots, 'lobby-390.png'), fullPage: true });
      await b.page.setViewportSize({ width: 360, height: 800 });
      const lobbyWidth = await b.page.evaluate(() => document.documentElement.scrollWidth);
      check(lobbyWidth <= 360, `no horizontal scroll on the start screen at 360 px: ${lobbyWidth}`);
      await b.page.setViewportSize({ width: 1280, height: 900 });
      // B accepts; both land on the game.
      await b.page.click(`${row} .seek-accept`);
      await b.page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
      await a.page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
      const id = gameId(b.page);
      check(gameId(a.page) === id, 'both players are in the same game');
      let s = await api(`/api/games/${id}`);
      check(s.rated === true, `a rated game: ${JSON.stringify(s.rated)}`);
      const senteName = s.players.sente.name;
      const goteName = s.players.gote.name;
      check(
        [senteName, goteName].sort().join() === [nameA, nameB].sort().join(),
        `the seats are named: ${JSON.stringify(s.players)}`,
      );
      const sente = senteName === nameA ? a : b;
      const gote = senteName === nameA ? b : a;
      for (const p of [a, b]) {
        await p.page.waitForSelector('.board sg-board piece');
        await p.page.waitForFunction(
          ([x, y]) => {
            const text = [...document.querySelectorAll('.player .name')].map((e) => e.textContent).join(' | ');
            return text.includes(x) && text.includes(y) && text.includes('1500?');
          },
          [nameA, nameB],
        );
      }
      check(
        (await gote.page.textContent('.player.bottom .name')).includes(goteName),
        'Gote sees their own name at the bottom',
      );
      // One dot per player (the connection); the side to move is marked otherwise.
      await sente.page.waitForFunction(() => document.querySelectorAll('.player .conn.on').length === 2);
      check((await sente.page.locator('.player.bottom .conn').count()) === 1, 'one dot on the own row');
      check((await sente.page.locator('.player.top .conn').count()) === 1, "one dot on the opponent's row");
      const marker = await sente.page.evaluate(
        () => getComputedStyle(document.querySelector('.player.to-move .name'), '::before').content,
      );
      check(!marker.includes('●'), `the side to move is not marked with a dot: ${marker}`);
      await sente.page.screenshot({ path: join(shots, 'players-game.png') });
      // A third browser finds the game in the live list and watches it.
      await c.page.goto(`${BASE}/`);
      await c.page.waitForSelector(`.live-row[data-id="${id}"]`, { timeout: 10000 });
      const liveText = await c.page.textContent(`.live-row[data-id="${id}"]`);
      check(liveText.includes(nameA) && liveText.includes(nameB), `the live row: ${liveText}`);
      await c.page.click(`.live-row[data-id="${id}"] a`);
      await c.page.waitForURL(new RegExp(`/g/${id}$`));
      await c.page.waitForSelector('.board sg-board piece');
      await c.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('watching'));
      // A few moves; the spectator sees them arrive.
      await dragSquare(sente.page, '7g', '7f', 'sente');
      await waitState(id, (x) => x.moves.length === 1, "Sente's first move");
      await c.page.waitForSelector('#moves .move[data-ply="1"]');
      await gote.page.waitForSelector('#moves .move[data-ply="1"]');
      await dragSquare(gote.page, '3c', '3d', 'gote');
      await waitState(id, (x) => x.moves.length === 2, "Gote's first move");
      await sente.page.waitForSelector('#moves .move[data-ply="2"]');
      await dragSquare(sente.page, '2g', '2f', 'sente');
      await waitState(id, (x) => x.moves.length === 3, "Sente's second move");
      await c.page.waitForSelector('#moves .move[data-ply="3"]');
      check((await c.page.locator('#chat').count()) === 0, 'a spectator has no chat');
      await c.page.setViewportSize({ width: 360, height: 800 });
      const gameWidth = await c.page.evaluate(() => document.documentElement.scrollWidth);
      check(gameWidth <= 360, `no horizontal scroll on the game screen at 360 px: ${gameWidth}`);
      // Gote resigns.
      gote.page.once('dialog', (d) => d.accept());
      await gote.page.click('#resign');
      s = await waitState(id, (x) => x.status.over, 'the resignation');
      check(s.status.winner === 'sente' && s.status.reason === 'resign', JSON.stringify(s.status));
      // Both profiles list the game, with ratings moved off 1500.
      for (const [p, name, won] of [
        [sente, senteName, true],
        [gote, goteName, false],
      ]) {
        await p.page.goto(`${BASE}/@/${encodeURIComponent(name)}`);
        await p.page.waitForSelector('#profile');
        await p.page.waitForSelector(`#profile-games .archive-row[data-id="${id}"]`);
        const rating = Number.parseInt(await p.page.textContent('.rating-row[data-class="classical"] .rating'), 10);
        check(
          won ? rating > 1500 : rating < 1500,
          `${name}'s classical rating after ${won ? 'winning' : 'losing'}: ${rating}`,
        );
        check(
          (await p.page.locator('.rating-history[data-class="classical"] svg circle').count()) >= 1,
          'the rating history chart has the game',
        );
        check(
          (await p.page.textContent('#profile-results')).includes(won ? 'Wins: 1' : 'Losses: 1'),
          'the result is counted',
        );
        check((await p.page.locator('#account-settings').count()) === 1, "account settings on one's own profile");
      }
      await sente.page.screenshot({ path: join(shots, 'profile.png'), fullPage: true });
      await sente.page.setViewportSize({ width: 390, height: 844 });
      await sente.page.screenshot({ path: join(shots, 'profile-390.png'), fullPage: true });
      await sente.page.setViewportSize({ width: 360, height: 800 });
      const profileWidth = await sente.page.evaluate(() => document.documentElement.scrollWidth);
      check(profileWidth <= 360, `no horizontal scroll on the profile at 360 px: ${profileWidth}`);
      // An unknown player: the not-found screen.
      await c.page.goto(`${BASE}/@/nobody-${stamp}`);
      await c.page.waitForSelector('#not-found');
      // The KIF names both players.
      const kif = await (await fetchRetry(`${BASE}/api/games/${id}/record?format=kif`)).text();
      const lines = kif.split(/\r?\n/);
      check(
        lines.some((l) => l.startsWith('先手：') && l.includes(senteName)),
        `先手 line names ${senteName}:\n${kif}`,
      );
      check(
        lines.some((l) => l.startsWith('後手：') && l.includes(goteName)),
        `後手 line names ${goteName}:\n${kif}`,
      );
      for (const p of [a, b, c]) await p.context.close();
    });

    await test('impasse: the count (count24) and the declaration (27) through the buttons', async () => {
      const { context, page } = await newPage(browser);
      // Both kings entered, each side owning 27 points: the accepted count is a draw.
      let g = await post('/api/games', {
        mode: 'local',
        sfen: '9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1',
        rules: { impasse: 'count24' },
      });
      await openWithToken(page, g);
      const points = await page.textContent('#impasse');
      check(points.includes('27') && points.includes('Count 24'), `count24 points shown: ${points}`);
      await page.click('#propose-count');
      await page.waitForSelector('#accept-count');
      await page.click('#accept-count');
      let s = await waitState(g.id, (s) => s.status.over, 'the count');
      check(
        s.status.reason === 'impasse' && s.status.winner === null,
        `a draw by the count: ${JSON.stringify(s.status)}`,
      );
      await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('Draw'));
      await page.screenshot({ path: join(shots, 'impasse-count.png') });
      // Sente's king in the camp with 10 pieces there and 28 points: the declaration wins.
      g = await post('/api/games', {
        mode: 'local',
        sfen: '+P+P7/4K4/+P+PSS1GGBR/9/9/9/9/9/4k4 b RB 1',
        rules: { impasse: '27' },
      });
      await openWithToken(page, g);
      check(
        (await page.getAttribute('#declare', 'class'))?.includes('primary'),
        'the declaration is highlighted when it wins',
      );
      page.once('dialog', (d) => d.accept());
      await page.click('#declare');
      s = await waitState(g.id, (s) => s.status.over, 'the declaration');
      check(
        s.status.reason === 'impasse' && s.status.winner === 'sente',
        `sente wins by declaration: ${JSON.stringify(s.status)}`,
      );
      await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('Sente wins'));
      await page.screenshot({ path: join(shots, 'impasse-declaration.png') });
      await context.close();
    });

    await test('impasse: no declaration or count button before it is possible, the conditions explained', async () => {
      const { context, page } = await newPage(browser);
      let g = await post('/api/games', { mode: 'local', rules: { impasse: '27' } });
      await openWithToken(page, g);
      await page.waitForSelector('#impasse-conditions');
      check((await page.locator('#declare').count()) === 0, 'no declaration button at the start of a 27-point game');
      const cond = await page.textContent('#impasse-conditions');
      check(
        cond.includes('10 other pieces') && cond.includes('28 points') && cond.includes('not in check'),
        `the 27-point conditions: ${cond}`,
      );
      await shootNarrow(page, 'impasse-conditions', 'the game screen');
      g = await post('/api/games', { mode: 'local', rules: { impasse: '24' } });
      await openWithToken(page, g);
      await page.waitForSelector('#impasse-conditions');
      check((await page.locator('#declare').count()) === 0, 'no declaration button at the start of a 24-point game');
      const cond24 = await page.textContent('#impasse-conditions');
      check(cond24.includes('31+') && cond24.includes('24–30'), `the 24-point conditions: ${cond24}`);
      g = await post('/api/games', { mode: 'local', rules: { impasse: 'count24' } });
      await openWithToken(page, g);
      await page.waitForSelector('#impasse-conditions');
      check((await page.locator('#propose-count').count()) === 0, 'no count proposal before both kings entered');
      check((await page.textContent('#impasse-conditions')).includes('both kings'), 'the count condition');
      await context.close();
    });

    await test("the server's refusals in the UI language: a broken record, a wrong login, a wrong invite (Russian, Ukrainian)", async () => {
      const ru = await newPage(browser, 'ru-RU');
      // An import the reader cannot read: the line, the column, the token and what is wrong, in Russian.
      await ru.page.goto(`${BASE}/import`);
      await ru.page.waitForSelector('#import-text');
      await ru.page.fill('#import-text', 'V2.2\nPI\n+\n+7776XX\n');
      await ru.page.click('#import-submit');
      await ru.page.waitForFunction(() => document.querySelector('#import-error')?.textContent !== '');
      const importError = await ru.page.textContent('#import-error');
      check(importError === 'Строка 4, столбец 1: ход не читается «+7776XX»', `Russian import error: ${importError}`);
      await ru.page.fill('#import-text', 'hello world');
      await ru.page.click('#import-submit');
      // The field is emptied when the request is sent: wait for the new words.
      await ru.page.waitForFunction((before) => {
        const text = document.querySelector('#import-error')?.textContent ?? '';
        return text !== '' && text !== before;
      }, importError);
      const noRecord = await ru.page.textContent('#import-error');
      check(
        noRecord.includes('в тексте нет записи партии') && !/[a-z]{4}/.test(noRecord.replace('hello world', '')),
        `Russian "no record": ${noRecord}`,
      );
      await shootNarrow(ru.page, 'server-error-import-russian', 'the import page with a Russian server error');
      // A wrong password: the login dialog says so in Russian.
      await ru.page.click('#login-open');
      await ru.page.fill('#login-name', 'nobody_here');
      await ru.page.fill('#login-password', 'not the password');
      await ru.page.click('#login-submit');
      await ru.page.waitForFunction(() => document.querySelector('#login-error')?.textContent !== '');
      const loginError = await ru.page.textContent('#login-error');
      check(loginError === 'Неверное имя или пароль.', `Russian login error: ${loginError}`);
      await ru.page.screenshot({ path: join(shots, 'server-error-login-russian.png') });
      await ru.context.close();
      // An invite link with a wrong code: refused (403), said in Ukrainian.
      const a = await newPage(browser);
      await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: 'none' });
      const id = gameId(a.page);
      const uk = await newPage(browser, 'uk-UA');
      await uk.page.goto(`${BASE}/g/${id}?join=0123456789abcdef0123456789abcdef`);
      await uk.page.waitForSelector('#join-seat');
      await uk.page.click('#join-seat');
      await uk.page.waitForSelector('#message');
      const joinError = await uk.page.textContent('#message');
      check(
        joinError.includes('Це посилання-запрошення не підходить до партії.'),
        `Ukrainian wrong invite: ${joinError}`,
      );
      await shootNarrow(uk.page, 'server-error-invite-ukrainian', 'the game screen of a wrong invite');
      for (const p of [a, uk]) await p.context.close();
    });

    await test('an invite link opened again: the seat is taken, said in the UI language', async () => {
      const a = await newPage(browser);
      await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: 'none' });
      const id = gameId(a.page);
      const link = await a.page.inputValue('#invite-link');
      // Two browsers open the link while the seat is free; the first takes it.
      const b = await newPage(browser);
      const c = await newPage(browser, 'ru-RU');
      for (const p of [b, c]) {
        await p.page.goto(link);
        await p.page.waitForSelector('#join-seat');
      }
      await b.page.click('#join-seat');
      await b.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('Gote'));
      await waitState(id, (s) => s.seats.gote, 'the first visitor to take the seat');
      // The second is refused (409) and told so, in Russian.
      await c.page.click('#join-seat');
      await c.page.waitForSelector('.board sg-board piece');
      await c.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('место уже занято'));
      check((await c.page.locator('#message').count()) === 0, 'no error besides the seat line');
      await c.page.screenshot({ path: join(shots, 'invite-seat-taken-russian.png') });
      // A third opening of the link: no name asked, the same words (English).
      const d = await newPage(browser);
      await d.page.goto(link);
      await d.page.waitForSelector('.board sg-board piece');
      await d.page.waitForFunction(() =>
        document.querySelector('#seat')?.textContent?.includes('This seat has been taken'),
      );
      check((await d.page.locator('#join-seat').count()) === 0, 'no join screen for a taken seat');
      check(!d.page.url().includes('join='), 'the join code is dropped from the address');
      await shootNarrow(d.page, 'invite-seat-taken', 'the game screen of a refused invitee');
      for (const p of [c, d]) {
        const held = await p.page.evaluate((k) => localStorage.getItem(k), `shogi.token.${id}`);
        check(held === null, 'a refused visitor holds no seat token');
      }
      check((await b.page.textContent('#seat')).includes('Gote'), 'the seat stays with the first visitor');
      for (const p of [a, b, c, d]) await p.context.close();
    });

    await test('the clocks stand still while the connection is lost and count again after it is back', async () => {
      const { context, page } = await newPage(browser);
      // The game's WebSocket goes through the test: passed to the server, or cut.
      let offline = false;
      const open = [];
      await page.routeWebSocket(/\/api\/games\/[0-9a-f]+\/ws/, (ws) => {
        if (offline) {
          ws.close();
          return;
        }
        const server = ws.connectToServer();
        open.push([ws, server]);
      });
      await createFromStartScreen(page, { mode: 'local', time: '10+30' });
      const id = gameId(page);
      await clickSquare(page, '7g', 'sente');
      await clickSquare(page, '7f', 'sente');
      await waitState(id, (s) => s.moves.length === 1 && s.clocks?.running === 'gote', "Gote's clock to run");
      await page.waitForSelector('.clock.running[data-side="gote"]');
      // Cut the connection.
      offline = true;
      for (const [ws, server] of open.splice(0)) {
        await ws.close();
        await server.close();
      }
      await page.waitForSelector('.clock.paused[data-side="gote"]');
      check((await page.locator('.clock.running').count()) === 0, 'no clock shown running while disconnected');
      check((await page.locator('.clock.paused').count()) === 2, 'both clocks shown paused');
      check(
        (await page.textContent('.clock[data-side="gote"] .extra')).includes('reconnecting'),
        'the clock says it is reconnecting',
      );
      const t1 = await page.textContent('.clock[data-side="gote"] .main');
      await sleep(2200);
      const t2 = await page.textContent('.clock[data-side="gote"] .main');
      check(t1 === t2, `the clock stands still while disconnected: ${t1} -> ${t2}`);
      await shootNarrow(page, 'clock-reconnecting', 'the game screen while reconnecting');
      // Back online: the next state brings the clock back, counting.
      offline = false;
      await page.waitForSelector('.clock.running[data-side="gote"]', { timeout: 30000 });
      check((await page.locator('.clock.paused').count()) === 0, 'no clock paused after reconnecting');
      const t3 = await page.textContent('.clock[data-side="gote"] .main');
      await sleep(2200);
      const t4 = await page.textContent('.clock[data-side="gote"] .main');
      check(t3 !== t4, `the clock counts again: ${t3} -> ${t4}`);
      await context.close();
    });

    await test('with "illegal moves lose" an illegal move can be made and loses', async () => {
      const { context, page } = await newPage(browser);
      await createFromStartScreen(page, { mode: 'local', time: 'none', illegal: 'lose' });
      const id = gameId(page);
      await clickSquare(page, '7g', 'sente');
      await clickSquare(page, '7e', 'sente');
      const s = await waitState(id, (s) => s.status.over, 'the illegal move to end the game');
      check(s.moves[0] === '7g7e', `the illegal move is recorded: ${s.moves}`);
      check(s.status.reason === 'illegal_move' && s.status.winner === 'gote', JSON.stringify(s.status));
      await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('illegal move'));
      await context.close();
    });

    // Sente ends up with a pawn in hand and a pawn on file 5: P*5e is nifu.
    const BEFORE_NIFU = ['7g7f', '3c3d', '7f7e', '3d3e', '7e7d', '3e3f', '7d7c+', '3f3g+'];
    /**
     * Types `moves` (USI) one by one into the move field, waiting for each to
     * be played: stored by the server and shown by the page, which reads the
     * next typed move against the position it has been sent.
     */
    const typeMoves = async (page, id, moves) => {
      const before = (await api(`/api/games/${id}`)).moves.length;
      for (const [i, mv] of moves.entries()) {
        await page.fill('#move-input', mv);
        await page.press('#move-input', 'Enter');
        const ply = before + i + 1;
        await waitState(id, (s) => s.moves.length === ply, `typed move ${mv}`);
        await page.waitForSelector(`#moves .move[data-ply="${ply}"]`, { state: 'attached' });
      }
    };
    const dropPawnOn5e = async (page) => {
      await page.click('.hand-bottom-el piece.sente.pawn');
      await clickSquare(page, '5e', 'sente');
    };

    await test('a refused move is explained at the square: nifu in English and Russian; when illegal moves lose, the ending names it', async () => {
      const { context, page } = await newPage(browser);
      await createFromStartScreen(page, { mode: 'local', time: 'none' });
      const id = gameId(page);
      await typeMoves(page, id, BEFORE_NIFU);
      await dropPawnOn5e(page);
      await page.waitForSelector('#rule-bubble');
      const bubble = await page.textContent('#rule-bubble');
      check(bubble === 'Nifu: a second pawn on file 5', `the bubble in English: ${bubble}`);
      check((await page.getAttribute('#rule-bubble', 'data-square')) === '5e', 'the bubble is at 5e');
      check((await page.textContent('#message')).includes('Nifu'), 'the message area says it too');
      // Over the square: the bubble's centre is above 5e's centre, on its file.
      const b = await page.locator('#rule-bubble').boundingBox();
      const sq = await squareCenter(page, '5e', 'sente');
      check(
        Math.abs(b.x + b.width / 2 - sq.x) < 4 && b.y + b.height <= sq.y,
        `the bubble over 5e: ${JSON.stringify(b)} vs ${JSON.stringify(sq)}`,
      );
      await shootNarrow(page, 'refused-nifu', 'a game with a refused move');
      check((await api(`/api/games/${id}`)).moves.length === BEFORE_NIFU.length, 'the refused move was not played');
      await page.selectOption('#lang', 'ru');
      await dropPawnOn5e(page);
      await page.waitForFunction(
        () => document.querySelector('#rule-bubble')?.textContent === 'Нифу: вторая пешка на вертикали 5',
      );
      await page.screenshot({ path: join(shots, 'refused-nifu-russian.png') });
      await page.selectOption('#lang', 'en');

      await createFromStartScreen(page, { mode: 'local', time: 'none', illegal: 'lose' });
      const lost = gameId(page);
      await typeMoves(page, lost, BEFORE_NIFU);
      await dropPawnOn5e(page);
      const s = await waitState(lost, (x) => x.status.over, 'the nifu to lose');
      check(
        s.status.foul?.rule === 'nifu' && s.status.foul?.file === 5 && s.status.winner === 'gote',
        JSON.stringify(s.status),
      );
      await page.waitForFunction(() =>
        document.querySelector('#status')?.textContent?.includes('Gote wins (nifu on file 5)'),
      );
      await page.selectOption('#lang', 'ru');
      await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('нифу на вертикали 5'));
      await shootNarrow(page, 'foul-nifu-russian', 'a game lost by nifu');
      await context.close();
    });

    await test('keyboard play: moves typed in USI and Western, an ambiguous move asks, the screen reader hears the moves and the position', async () => {
      const { context, page } = await newPage(browser);
      await createFromStartScreen(page, { mode: 'local', time: 'none' });
      const id = gameId(page);
      check((await page.getAttribute('.board', 'aria-label')) === 'Shogi board', 'the board has an accessible name');
      check((await page.textContent('label[for="move-input"]')) === 'Type a move', 'the field is labelled');
      await page.fill('#move-input', '7g7f');
      await page.press('#move-input', 'Enter');
      await waitState(id, (s) => s.moves.length === 1, 'the USI move');
      await page.fill('#move-input', 'P-34');
      await page.press('#move-input', 'Enter');
      let s = await waitState(id, (x) => x.moves.length === 2, 'the Western move');
      check(s.moves[1] === '3c3d', `P-34 is 3c3d: ${s.moves}`);
      await page.waitForFunction(() => document.querySelector('#live')?.textContent === 'Move 2: P-3d');
      check((await page.getAttribute('#live', 'aria-live')) === 'polite', 'the live region is polite');
      // Both golds reach 5h: the choices are offered.
      await page.fill('#move-input', 'G-5h');
      await page.press('#move-input', 'Enter');
      await page.waitForSelector('#type-note .choice');
      const choices = await page.$$eval('#type-note .choice', (els) => els.map((e) => e.textContent));
      check(choices.length === 2 && choices.includes('G4i-5h') && choices.includes('G6i-5h'), `choices: ${choices}`);
      await page.screenshot({ path: join(shots, 'keyboard-ambiguous.png') });
      await page.click('#type-note .choice[data-usi="4i5h"]');
      s = await waitState(id, (x) => x.moves.length === 3, 'the chosen move');
      check(s.moves[2] === '4i5h', `the chosen gold: ${s.moves}`);
      await page.waitForFunction(() => document.querySelector('#live')?.textContent === 'Move 3: G4i-5h');
      await page.fill('#move-input', 'K-1a');
      await page.press('#move-input', 'Enter');
      await page.waitForFunction(() =>
        document.querySelector('#type-note')?.textContent?.includes('No legal move reads "K-1a"'),
      );
      await page.click('#describe');
      const said = await page.textContent('#live');
      check(
        said.includes('☗ Sente: king 5i;') && said.includes('gold 6i, 5h;') && said.includes('in hand: nothing.'),
        `the position in words: ${said}`,
      );
      await shootNarrow(page, 'keyboard-play', 'a game played from the keyboard');
      await context.close();
    });

    await test('byoyomi sounds: off by default, the switch is remembered across a reload', async () => {
      const { context, page } = await newPage(browser);
      await createFromStartScreen(page, { mode: 'local', time: '0+30' });
      await page.waitForSelector('#sound-toggle');
      check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'false', 'off by default');
      check(
        (await page.getAttribute('#sound-toggle', 'aria-label')) === 'Byoyomi sounds off',
        'named for what it does',
      );
      await page.click('#sound-toggle');
      check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'true', 'turned on');
      await page.reload();
      await page.waitForSelector('#sound-toggle');
      check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'true', 'still on after a reload');
      await shootNarrow(page, 'byoyomi-sound-on', 'a game with the sound switch');
      await page.click('#sound-toggle');
      check((await page.evaluate(() => localStorage.getItem('shogi.sound'))) === 'off', 'turned off and remembered');
      await context.close();
    });

    await test('playing Gote against the computer: the board is turned, the computer starts', async () => {
      const { context, page } = await newPage(browser, 'uk-UA');
      await createFromStartScreen(page, { mode: 'ai', side: 'gote', time: 'none', handicap: 'bishop' });
      const id = gameId(page);
      check((await page.locator('.board.orientation-gote').count()) === 1, 'seen from Gote');
      // Bishop handicap: the giver (Gote, us) moves first.
      let s = await api(`/api/games/${id}`);
      check(s.side_to_move === 'gote' && s.moves.length === 0, 'the handicap giver moves first');
      await clickSquare(page, '3c', 'gote');
      await clickSquare(page, '3d', 'gote');
      s = await waitState(id, (s) => s.moves.length >= 2, 'the computer to answer');
      check(s.moves[0] === '3c3d', `played 3c3d, got ${s.moves[0]}`);
      const seat = await page.textContent('#seat');
      check(seat.includes('Ви граєте'), `Ukrainian: ${seat}`);
      await page.screenshot({ path: join(shots, 'ai-gote-ukrainian.png') });
      await context.close();
    });

    await test('two players on one device, with clocks counting down', async () => {
      const { context, page } = await newPage(browser, 'ja-JP');
      await createFromStartScreen(page, { mode: 'local', time: '0+30' });
      const id = gameId(page);
      await clickSquare(page, '7g', 'sente');
      await clickSquare(page, '7f', 'sente');
      await waitState(id, (s) => s.moves.length === 1, 'the first move');
      await clickSquare(page, '3c', 'sente');
      await clickSquare(page, '3d', 'sente');
      await waitState(id, (s) => s.moves.length === 2, 'the second move');
      const t1 = await page.textContent('.player.bottom .clock .main');
      await sleep(2200);
      const t2 = await page.textContent('.player.bottom .clock .main');
      check(t1 !== t2, `the running clock counts down: ${t1} -> ${t2}`);
      const status = await page.textContent('#status');
      check(status.includes('先手'), `Japanese status: ${status}`);
      await page.screenshot({ path: join(shots, 'local-japanese.png') });
      await context.close();
    });
    await test('import a KIF file, step through it, analyse it, download KIF and CSA, search for mate', async () => {
      const { context, page } = await newPage(browser);
      const kif = [
        '開始日時：2024/01/05(金) 10:00',
        '持ち時間：各30分',
        '手合割：平手',
        '先手：Alice',
        '後手：Bob',
        '手数----指手---------消費時間--',
        '   1 ７六歩(77)   ( 0:01/00:00:01)',
        '*A comment on the first move',
        '   2 ３四歩(33)   ( 0:02/00:00:02)',
        '   3 ２六歩(27)   ( 0:01/00:00:02)',
        '   4 ８四歩(83)   ( 0:01/00:00:03)',
        '   5 ２五歩(26)   ( 0:01/00:00:03)',
        '   6 ８五歩(84)   ( 0:01/00:00:04)',
        '   7 投了',
        '',
      ].join('\n');
      const expected = ['7g7f', '3c3d', '2g2f', '8c8d', '2f2e', '8d8e'];
      await page.goto(`${BASE}/`);
      await page.click('#link-import');
      await page.waitForSelector('#import-text');
      // A broken file: the server's message is shown and nothing is stored.
      await page.fill('#import-text', 'V2.2\nPI\n+\n+7776XX\n');
      await page.click('#import-submit');
      await page.waitForFunction(() => document.querySelector('#import-error')?.textContent?.includes('Line 4'), null, {
        timeout: 5000,
      });
      await shootNarrow(page, 'import-error', 'the import page');
      await page.setInputFiles('#import-file', { name: 'game.kif', mimeType: 'text/plain', buffer: Buffer.from(kif) });
      await page.waitForURL(/\/review\/[0-9a-f]{16}$/, { timeout: 10000 });
      const id = new URL(page.url()).pathname.split('/')[2];
      await page.waitForSelector('#moves .move[data-ply="6"]');
      check((await page.textContent('.review-title')).includes('Alice'), 'the players are shown');
      const reviewInfo = await page.textContent('#review-result');
      check(
        reviewInfo.includes('5 Jan 2024') && reviewInfo.includes('30 min'),
        `the record's own day and time control: ${reviewInfo}`,
      );
      // Step through the main line with the keyboard and the buttons.
      await page.keyboard.press('ArrowRight');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '1', 'ArrowRight shows move 1');
      check((await page.textContent('#comments')).includes('A comment on the first move'), 'the comment of move 1');
      await page.click('#nav-next');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '2', 'next shows move 2');
      await page.click('#nav-last');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '6', 'last shows move 6');
      const sfen = await page.inputValue('#sfen');
      check(
        sfen === 'lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1B5R1/LNSGKGSNL b - 7',
        `the SFEN of the shown position: ${sfen}`,
      );
      await page.click('#nav-first');
      check((await page.getAttribute('#moves .move.current', 'data-ply')) === '0', 'first shows the start');
      // Analysis: progress, the graph, a click on a point, the best-move arrow.
      await page.click('#analyse');
      await page.waitForSelector('#analysis-status[data-status="done"]', { timeout: 60000 });
      const points = await page.locator('#eval-graph circle').count();
      check(points === 7, `one graph point per position, got ${points}`);
      // The board and the graph are seen together at 1280×900, and a click on the graph leaves the page where it is.
      const inView = async (sel) => {
        const b = await page.locator(sel).first().boundingBox();
        return b !== null && b.y >= 0 && b.y + b.height <= 900;
      };
      check(
        (await inView('.board')) && (await inView('#eval-graph')),
        'the board and the evaluation graph are both in view at 1280×900',
      );
      const labels = await page.locator('#eval-graph text.label').allTextContents();
      check(
        ['25%', '50%', '75%'].every((l) => labels.includes(l)),
        `the win-rate axis has its labels: ${labels}`,
      );
      await page.click('#eval-graph circle[data-ply="3"]');
      check(
        (await page.getAttribute('#moves .move.current', 'data-ply')) === '3',
        'a click on the graph jumps to ply 3',
      );
      check((await page.evaluate(() => window.scrollY)) === 0, 'the page did not scroll away from the board');
      check(
        (await inView('.board')) && (await inView('#moves .move.current')),
        'the board and the current move stay in view',
      );
      const pointTitle = await page.textContent('#eval-graph circle[data-ply="3"] title');
      check(
        /^3: \d+% \(([+-]?\d+ cp|Mate -?\d+)\)$/.test(pointTitle),
        `a point's title gives the win rate and the centipawns: ${pointTitle}`,
      );
      await page.waitForSelector('.board svg.sg-shapes line, .board svg.sg-shapes path', {
        state: 'attached',
        timeout: 5000,
      });
      check((await page.textContent('#eval-now')).length > 0, 'the evaluation of the shown position');
      // The best move is written in the move list's notation (Western in English), not USI.
      const best = await page.textContent('#best-move');
      check(/^\+?[KRBGSNLP]/.test(best), `the best move in Western notation: ${best}`);
      for (const better of await page.locator('#mistakes .better').allTextContents()) {
        check(/^\+?[KRBGSNLP]/.test(better), `a better move in Western notation: ${better}`);
      }
      await sleep(400);
      await shootNarrow(page, 'review-analysis', 'the review page');
      // Downloads: KIF and CSA, each read back by the server.
      for (const format of ['kif', 'csa']) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#dl-${format}`)]);
        const path = await download.path();
        const text = readFileSync(path, 'utf8');
        const r = await fetchRetry(`${BASE}/api/import`, { method: 'POST', body: text });
        check(r.ok, `the downloaded ${format} imports: ${r.status}`);
        const back = await r.json();
        check(JSON.stringify(back.moves) === JSON.stringify(expected), `${format} moves: ${back.moves}`);
        check(back.ending.reason === 'resign', `${format} ending: ${JSON.stringify(back.ending)}`);
      }
      // The archive lists it; the player filter finds it.
      await page.click('#link-archive');
      await page.waitForSelector('#archive-form');
      await page.fill('#archive-player', 'alice');
      await page.click('#archive-form button[type="submit"]');
      // The filtered list, not the unfiltered first page drawn before it.
      await page.waitForSelector('#archive-list[data-query*="player=alice"]');
      await page.waitForSelector(`.archive-row[data-id="${id}"]`);
      const rows = await page.locator('.archive-row').count();
      check(rows === 1, `one game of Alice, got ${rows}`);
      const row = await page.textContent(`.archive-row[data-id="${id}"]`);
      check(
        row.includes('5 Jan 2024') && row.includes('30 min') && !row.includes('((') && !row.includes('))'),
        `the archive shows the record's day and time control: ${row}`,
      );
      // The same day in Japanese, as the review writes it.
      await page.selectOption('#lang', 'ja');
      await page.waitForFunction(
        (rid) => document.querySelector(`.archive-row[data-id="${rid}"]`)?.textContent?.includes('2024年1月5日'),
        id,
        { timeout: 5000 },
      );
      await page.selectOption('#lang', 'en');
      await shootNarrow(page, 'archive', 'the archive page');
      // Mate search from a position with a mate in one; the line can be stepped through.
      const r = await fetchRetry(`${BASE}/api/import?save=1`, {
        method: 'POST',
        body: 'position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1',
      });
      const tsume = await r.json();
      check(r.ok, `the mate problem imports: ${JSON.stringify(tsume)}`);
      await page.goto(`${BASE}/review/${tsume.id}`);
      await page.waitForSelector('#mate-search');
      await page.click('#mate-search');
      await page.waitForSelector('#mate-result[data-result="mate"]', { timeout: 15000 });
      await page.click('#mate-next');
      check((await page.getAttribute('#mate-line .move.current', 'data-step')) === '1', 'stepped into the mating line');
      check(
        (await page.inputValue('#sfen')).includes('4G4'),
        `the mating move is shown: ${await page.inputValue('#sfen')}`,
      );
      await sleep(400);
      await page.screenshot({ path: join(shots, 'review-mate.png') });
      await context.close();
    });
    await test('review: variations in the list, a new variation and a comment saved, continue against the computer', async () => {
      const { context, page } = await newPage(browser);
      const kif = [
        '手合割：平手',
        '先手：Carol',
        '後手：Dan',
        '手数----指手---------消費時間--',
        '   1 ７六歩(77)',
        '   2 ３四歩(33)',
        '   3 ２六歩(27)',
        '   4 ８四歩(83)',
        '   5 投了',
        '',
        '変化：2手',
        '   2 ８四歩(83)',
        '   3 ２六歩(27)',
        '',
      ].join('\n');
      await page.goto(`${BASE}/import`);
      await page.waitForSelector('#import-text');
      await page.fill('#import-text', kif);
      await page.click('#import-submit');
      await page.waitForURL(/\/review\/[0-9a-f]{16}$/, { timeout: 10000 });
      const id = new URL(page.url()).pathname.split('/')[2];
      await page.waitForSelector('#moves .variation .move');
      const shown = await page.locator('#moves .variation .move').count();
      check(shown === 2, `the variation's two moves are listed, got ${shown}`);
      // Step into the variation, then through it with the keyboard.
      await page.click('#moves .variation .move[data-ply="2"]');
      const current = async () => [
        await page.getAttribute('#moves .move.current', 'data-path'),
        await page.getAttribute('#moves .move.current', 'data-ply'),
      ];
      check(JSON.stringify(await current()) === '["1.0","2"]', `in the variation: ${await current()}`);
      await page.keyboard.press('ArrowRight');
      check(JSON.stringify(await current()) === '["1.0","3"]', `ArrowRight follows the variation: ${await current()}`);
      const varSfen = 'lnsgkgsnl/1r5b1/p1ppppppp/1p7/9/2P4P1/PP1PPPP1P/1B5R1/LNSGKGSNL w - 4';
      check(
        (await page.inputValue('#sfen')) === varSfen,
        `the variation's position: ${await page.inputValue('#sfen')}`,
      );
      await page.keyboard.press('ArrowRight');
      check(JSON.stringify(await current()) === '["1.0","3"]', 'the variation ends at move 3');
      await page.click('#nav-prev');
      await page.click('#nav-prev');
      await page.click('#nav-prev');
      check(JSON.stringify(await current()) === '["","0"]', `back to the start: ${await current()}`);
      await page.click('#nav-last');
      check(JSON.stringify(await current()) === '["1.0","3"]', `last is the variation's end: ${await current()}`);
      // A move played on the board extends the variation (Gote: 8d8e).
      await sleep(500); // the legal moves of the shown position come from the server
      await dragSquare(page, '8d', '8e', 'sente');
      await page.waitForFunction(
        () => document.querySelector('#moves .move.current')?.getAttribute('data-ply') === '4',
        null,
        { timeout: 5000 },
      );
      check((await page.locator('#moves .variation .move').count()) === 3, 'the new move is in the variation');
      // A comment on it, saved.
      await page.fill('#comment-edit', 'Variation idea');
      check(!(await page.isDisabled('#save-annotations')), 'the importer may save');
      await page.click('#save-annotations');
      await page.waitForFunction(() => document.querySelector('#review-note')?.textContent === 'Saved', null, {
        timeout: 5000,
      });
      await page.reload();
      await page.waitForSelector('#moves .variation .move[data-ply="4"]');
      await page.click('#moves .variation .move[data-ply="4"]');
      check((await page.inputValue('#comment-edit')) === 'Variation idea', 'the comment is still there after a reload');
      const kifBack = await (await fetchRetry(`${BASE}/api/games/${id}/record?format=kif`)).text();
      check(
        kifBack.includes('変化：2手') && kifBack.includes('*Variation idea'),
        `the KIF download has them:\n${kifBack}`,
      );
      const png = await fetchRetry(`${BASE}${await page.getAttribute('#dl-png', 'href')}`);
      check(png.ok && (await png.headers.get('content-type')) === 'image/png', `the PNG link: ${png.status}`);
      await page.screenshot({ path: join(shots, 'review-variations.png') });
      // An imported record: the variation becomes the main line (the old line its variation), and the main line grows.
      await page.click('#promote-variation');
      const mainCount = async () => page.locator('#moves > .move').count();
      check((await mainCount()) === 5, `the start and the promoted line's four moves: ${await mainCount()}`);
      check(
        JSON.stringify(await current()) === '["","4"]',
        `on the same position, now on the main line: ${await current()}`,
      );
      check(
        (await page.locator('#moves .variation .move').count()) === 3,
        'the old main line is a variation of three moves',
      );
      await sleep(500);
      await dragSquare(page, '2f', '2e', 'sente');
      await page.waitForFunction(
        () => document.querySelector('#moves .move.current')?.getAttribute('data-ply') === '5',
        null,
        { timeout: 5000 },
      );
      check(
        JSON.stringify(await current()) === '["","5"]',
        `a move at the end extends the main line: ${await current()}`,
      );
      await page.click('#save-annotations');
      await page.waitForFunction(() => document.querySelector('#review-note')?.textContent === 'Saved', null, {
        timeout: 5000,
      });
      const promoted = await api(`/api/games/${id}/record?format=json`);
      check(promoted.moves.join(' ') === '7g7f 8c8d 2g2f 8d8e 2f2e', `the saved main line: ${promoted.moves}`);
      check(
        promoted.nodes[1].variations[0].map((n) => n.usi).join(' ') === '3c3d 2g2f 8c8d',
        'the old line is saved as a variation',
      );
      await shootNarrow(page, 'review-promoted', 'the review page with a promoted line');
      // Continue from the (now main-line) position after three moves against the computer.
      await page.click('#moves > .move[data-ply="3"]');
      check((await page.inputValue('#sfen')) === varSfen, 'back on the position to continue from');
      // "Continue" asks for the clock and rules first, as the start screen does.
      await page.click('#continue-ai');
      await page.waitForSelector('#continue-form');
      check(page.url().includes('/review/'), 'the form opens on the review page');
      await page.selectOption('#continue-form select[name="time"]', '30+30');
      await page.selectOption('#continue-form select[name="impasse"]', 'try');
      await page.selectOption('#continue-form select[name="illegal"]', 'lose');
      await shootNarrow(page, 'review-continue-form', 'the review page with the continue form');
      await page.click('#continue-start');
      await page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
      await page.waitForSelector('.board sg-board piece');
      await page.waitForSelector('#seat');
      const live = await api(`/api/games/${gameId(page)}`);
      check(
        live.start_sfen === varSfen && live.sfen === varSfen,
        `the live game starts from the review position: ${live.sfen}`,
      );
      check(
        live.mode === 'ai' && live.status.over === false && live.side_to_move === 'gote',
        `a live game against the computer: ${JSON.stringify(live.status)}`,
      );
      check(
        live.rules.impasse === 'try' && live.rules.illegal === 'lose',
        `the rules chosen in the form: ${JSON.stringify(live.rules)}`,
      );
      check(
        live.clocks !== null && live.clocks.sente.main_ms === 30 * 60000,
        `the clock chosen in the form: ${JSON.stringify(live.clocks)}`,
      );
      await context.close();
    });
    await test('tournament: a 12-player 5-round mixed Swiss played end to end in the browser (two boards online in round 1), standings, crosstable', async () => {
      const stamp = Date.now().toString(36).slice(-6);
      const password = 'correct horse battery';
      const open = [];
      /** Runs one named step; on failure every open page is screenshot and the step named. */
      const step = async (name, fn) => {
        try {
          return await fn();
        } catch (e) {
          for (const [i, p] of open.entries()) {
            await p.page
              .screenshot({ path: join(shots, `tournament-failed-${i}.png`), fullPage: true })
              .catch(() => {});
          }
          throw new Error(`step "${name}" failed: ${e?.message ?? e}`);
        }
      };
      /** Waits for `pred` in the page; a timeout reports the event page's own error line, if any. */
      const waitEvent = async (page, pred, arg, what, timeout = 15000) => {
        try {
          await page.waitForFunction(pred, arg, { timeout });
        } catch (e) {
          const said = await page.textContent('#event-error', { timeout: 1000 }).catch(() => '');
          throw new Error(`${what}: ${said ? `the page says "${said}"` : e.message.split('\n')[0]}`);
        }
      };
      const register = async (page, name) => {
        await page.goto(`${BASE}/`);
        await page.click('#register-open');
        await page.fill('#login-name', name);
        await page.fill('#login-password', password);
        await page.click('#login-submit');
        try {
          await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name, {
            timeout: 10000,
          });
        } catch {
          const said = await page.textContent('#login-error', { timeout: 1000 }).catch(() => '');
          throw new Error(
            `registering ${name}: ${said || 'no account name shown'} (this test registers 5 accounts: a server with rate limits allows 5 an hour per address; run it with --no-rate-limits)`,
          );
        }
      };
      const eventJson = () => api(`/api/tournaments/${id}`);
      const roundsOf = (ev) => ev.rounds;

      // The organiser registers and creates the event from /t.
      const org = await newPage(browser);
      open.push(org);
      const orgName = `Орг_${stamp}`;
      let id = '';
      await step('the organiser registers', () => register(org.page, orgName));
      await step('the organiser creates a mixed 5-round Swiss at 30 min + 30 s', async () => {
        await org.page.click('#link-tournaments');
        await org.page.waitForURL(/\/t$/);
        await org.page.waitForSelector('#event-form');
        check((await org.page.inputValue('#te-time')) === '30+30', 'the default time control is 30 min + 30 s byoyomi');
        await org.page.fill('#te-name', `Кубок клуба ${stamp}`);
        await org.page.fill('#te-place', 'Санкт-Петербург');
        await org.page.fill('#te-starts', '2026-12-25');
        await org.page.fill('#te-ends', '2026-12-26');
        await org.page.selectOption('#te-format', 'swiss');
        await org.page.fill('#te-rounds', '5');
        await org.page.selectOption('#te-play', 'mixed');
        const tbs = await org.page.$$eval('#te-tiebreaks .tb-item', (li) =>
          li.map((x) => x.getAttribute('data-key')).join(),
        );
        check(tbs === 'sos,sosos,direct', `the Swiss default tie-breaks: ${tbs}`);
        await org.page.screenshot({ path: join(shots, 'tournament-create.png'), fullPage: true });
        await org.page.click('#te-submit');
        await org.page.waitForURL(/\/t\/[0-9a-f]{16}$/, { timeout: 10000 });
        id = new URL(org.page.url()).pathname.split('/')[2];
        await org.page.waitForSelector('#event[data-status="registration"]');
        const ev = await eventJson();
        check(ev.format === 'swiss' && ev.play === 'mixed', `format and play: ${ev.format} ${ev.play}`);
        check(
          ev.time?.main_ms === 1800000 && ev.time?.byoyomi_ms === 30000,
          `30 min + 30 s: ${JSON.stringify(ev.time)}`,
        );
        // `you` is the session's view: asked from the organiser's page, with its cookie.
        const mine = await org.page.evaluate((u) => fetch(u).then((r) => r.json()), `/api/tournaments/${id}`);
        check(mine.you?.organiser === true, `the creator organises: ${JSON.stringify(mine.you)}`);
        check(
          (await org.page.textContent('#event-facts')).includes('30 min + 30 s'),
          'the header shows the time control',
        );
      });

      // Four players register in their own browsers and join by the Join button.
      const accountNames = [`Алёна_${stamp}`, `Борис_${stamp}`, `Carl_${stamp}`, `Dana_${stamp}`];
      const accounts = new Map();
      for (const [i, name] of accountNames.entries()) {
        const p = await newPage(browser, i === 1 ? 'ru-RU' : 'en-US');
        open.push(p);
        accounts.set(name.toLowerCase(), p);
        await step(`${name} registers and joins by the Join button`, async () => {
          await register(p.page, name);
          await p.page.goto(`${BASE}/t/${id}`);
          await p.page.click('#tab-players');
          if (i === 1) check((await p.page.textContent('#join-event')) === 'Записаться', 'the Join button in Russian');
          await p.page.click('#join-event');
          await waitEvent(
            p.page,
            (n) =>
              [...document.querySelectorAll('#players-table .player-row .account-link')].some(
                (a) => a.textContent === `@${n}`,
              ),
            name,
            `${name} listed as a player`,
          );
          check((await p.page.locator('#join-event').count()) === 0, 'no Join button once joined');
        });
      }

      // The organiser adds eight over-the-board players by the form.
      const otb = [
        ['Иванов Иван', 'СПб', 1850],
        ['Петрова Мария', 'СПб', 1800],
        ['Сидоров Пётр', 'Москва', 1750],
        ['Коваленко Олена', 'Київ', 1700],
        ['Tanaka Hiroshi', 'Tokyo', 1650],
        ['Smith John', '', 1600],
        ['Müller Anna', 'Berlin', 1550],
        ['Шевченко Тарас', 'Київ', 1450],
      ];
      await step('the organiser adds 8 over-the-board players', async () => {
        await org.page.reload();
        await org.page.click('#tab-players');
        for (const [name, club, rating] of otb) {
          await org.page.fill('#ap-name', name);
          await org.page.fill('#ap-rating', String(rating));
          await org.page.fill('#ap-club', club);
          await org.page.click('#ap-submit');
          await waitEvent(
            org.page,
            (n) =>
              [...document.querySelectorAll('#players-table .player-row .player-name')].some(
                (e) => e.textContent === n,
              ),
            name,
            `${name} added`,
          );
        }
        const rows = await org.page.locator('#players-table .player-row').count();
        check(rows === 12, `12 players listed: ${rows}`);
        const ev = await eventJson();
        check(ev.players.length === 12, `12 players in the event: ${ev.players.length}`);
        const ivan = ev.players.find((p) => p.name === 'Иванов Иван');
        check(
          ivan?.club === 'СПб' && ivan?.rating === 1850 && !ivan?.account,
          `an over-the-board player: ${JSON.stringify(ivan)}`,
        );
      });

      const players = (await eventJson()).players;
      const accountOf = (n) => players.find((p) => p.player === n)?.account ?? null;
      const accountNumbers = players.filter((p) => p.account).map((p) => p.player);
      check(accountNumbers.length === 4, `four players with accounts: ${JSON.stringify(players)}`);

      for (let n = 1; n <= 5; n++) {
        await step(`round ${n}: the organiser pairs it`, async () => {
          await org.page.click('#tab-rounds');
          await org.page.waitForSelector('#pair-round');
          if (n === 1) {
            // Two boards between accounts, to be played online: pairs forced together.
            await org.page.click('#pair-panel details.pair-options summary');
            for (const [a, b] of [
              [accountNumbers[0], accountNumbers[1]],
              [accountNumbers[2], accountNumbers[3]],
            ]) {
              await org.page.selectOption('#forced-a', String(a));
              await org.page.selectOption('#forced-b', String(b));
              await org.page.click('#forced-add');
            }
            check((await org.page.locator('#pair-panel .forced-item').count()) === 2, 'two forced pairs listed');
          }
          await org.page.click('#pair-round');
          await waitEvent(
            org.page,
            (r) => document.querySelectorAll(`.round[data-round="${r}"] .board-row`).length === 6,
            n,
            `round ${n} shown with 6 boards`,
          );
        });
        let round = roundsOf(await eventJson()).find((r) => r.round === n);
        check(round?.pairings?.length === 6, `round ${n} has 6 boards: ${JSON.stringify(round)}`);

        if (n === 1) {
          const online = round.pairings.filter((b) => b.play === 'online' && b.game);
          check(
            online.length === 2 && online.every((b) => accountOf(b.sente) && accountOf(b.gote)),
            `two boards between accounts online in round 1: ${JSON.stringify(round.pairings.map((b) => [b.board, b.sente, b.gote, b.play]))}`,
          );
          check(
            (await org.page.locator('.round[data-round="1"] .board-row .colours').first().textContent()).length > 0,
            'the colours are explained',
          );
          for (const [k, b] of online.entries()) {
            const sente = accounts.get(accountOf(b.sente).toLowerCase());
            const gote = accounts.get(accountOf(b.gote).toLowerCase());
            await step(
              `round 1 board ${b.board}: both players open "your game is ready" from the start screen`,
              async () => {
                for (const p of [sente, gote]) {
                  await p.page.goto(`${BASE}/`);
                  const link = `#tournament-games .ready-game[data-game="${b.game}"] a.ready-link`;
                  await p.page.waitForSelector(link, { timeout: 15000 });
                  if (p === sente && k === 0)
                    await p.page.screenshot({ path: join(shots, 'tournament-game-ready.png') });
                  await p.page.click(link);
                  await p.page.waitForURL(new RegExp(`/g/${b.game}$`), { timeout: 10000 });
                  await p.page.waitForSelector('.board sg-board piece');
                  await p.page.waitForSelector('#seat');
                }
              },
            );
            await step(`round 1 board ${b.board}: a few moves on the board, then a resignation`, async () => {
              const s0 = await api(`/api/games/${b.game}`);
              // The clock runs from the pairing (Sente's is counting): Gote's is still full.
              check(
                s0.clocks?.gote?.main_ms === 1800000 && s0.clocks?.gote?.byoyomi_ms === 30000,
                `the event's clock: ${JSON.stringify(s0.clocks)}`,
              );
              await dragSquare(sente.page, '7g', '7f', 'sente');
              await waitState(b.game, (s) => s.moves.length === 1, "Sente's first move");
              await gote.page.waitForSelector('#moves .move[data-ply="1"]');
              await dragSquare(gote.page, '3c', '3d', 'gote');
              await waitState(b.game, (s) => s.moves.length === 2, "Gote's first move");
              await sente.page.waitForSelector('#moves .move[data-ply="2"]');
              await dragSquare(sente.page, '2g', '2f', 'sente');
              await waitState(b.game, (s) => s.moves.length === 3, "Sente's second move");
              await gote.page.waitForSelector('#moves .move[data-ply="3"]');
              // The first board: Gote resigns; the second: Sente resigns.
              const loser = k === 0 ? gote : sente;
              loser.page.once('dialog', (d) => d.accept());
              await loser.page.click('#resign');
              const s = await waitState(b.game, (x) => x.status.over, 'the resignation');
              check(
                s.status.reason === 'resign' && s.status.winner === (k === 0 ? 'sente' : 'gote'),
                JSON.stringify(s.status),
              );
            });
            const want = k === 0 ? 'sente' : 'gote';
            await step(`round 1 board ${b.board}: the result reaches the event by itself`, async () => {
              // The organiser's page is not reloaded: it fetches the event every 10 s.
              await waitEvent(
                org.page,
                ([sel, w]) => document.querySelector(sel)?.getAttribute('data-result') === w,
                [`.board-row[data-round="1"][data-board="${b.board}"]`, want],
                `the online result "${want}" on the organiser's page without a reload`,
                30000,
              );
              const now = roundsOf(await eventJson())
                .find((r) => r.round === 1)
                .pairings.find((x) => x.board === b.board);
              check(now.result === want, `the event's result: ${now.result}`);
            });
          }
        }

        await step(`round ${n}: the organiser enters the other results`, async () => {
          round = roundsOf(await eventJson()).find((r) => r.round === n);
          for (const b of round.pairings) {
            if (b.result) continue;
            const row = `.board-row[data-round="${n}"][data-board="${b.board}"]`;
            if (b.play === 'online') {
              // A mixed event: a board whose game has no move yet goes over the board.
              await org.page.selectOption(`${row} select.play-select`, 'otb');
              await waitEvent(
                org.page,
                (sel) => document.querySelector(sel)?.getAttribute('data-play') === 'otb',
                row,
                `board ${b.board} moved over the board`,
              );
            }
            // Deterministic results: the lower number wins.
            const want = b.sente < b.gote ? 'sente' : 'gote';
            await org.page.selectOption(`${row} select.result-select`, want);
            await waitEvent(
              org.page,
              ([sel, w]) => document.querySelector(sel)?.getAttribute('data-result') === w,
              [row, want],
              `board ${b.board}: result "${want}" entered`,
            );
          }
          round = roundsOf(await eventJson()).find((r) => r.round === n);
          check(
            round.pairings.every((b) => b.result),
            `every result of round ${n} is in: ${JSON.stringify(round.pairings.map((b) => b.result))}`,
          );
        });
        if (n === 1) await org.page.screenshot({ path: join(shots, 'tournament-round1.png'), fullPage: true });
      }

      await step('the standings: 12 rows with ranks, points summing to 30', async () => {
        const ev = await eventJson();
        check(ev.status === 'finished', `the event is finished: ${ev.status}`);
        await org.page.click('#tab-standings');
        await org.page.waitForSelector('#standings .standing-row');
        const rows = await org.page.$$eval('#standings .standing-row', (trs) =>
          trs.map((tr) => ({
            rank: Number(tr.querySelector('.rank').textContent),
            points: Number(tr.querySelector('.points').getAttribute('data-points')),
          })),
        );
        check(rows.length === 12, `12 rows: ${rows.length}`);
        const sum = rows.reduce((a, r) => a + r.points, 0);
        check(sum === 30, `points sum to 30 (6 boards × 5 rounds): ${sum}`);
        check(
          rows[0].rank === 1 &&
            rows.every((r, i) => i === 0 || (r.rank >= rows[i - 1].rank && r.points <= rows[i - 1].points)),
          `ranks best first: ${JSON.stringify(rows)}`,
        );
        const heads = await org.page.$$eval('#standings thead th', (th) => th.map((x) => x.textContent));
        check(heads.includes('SOS') && heads.includes('SOSOS'), `the tie-breaks as columns: ${heads}`);
        await shootNarrow(org.page, 'tournament-event', 'the event page (/t/{id})');
        await org.page.click('#tab-rounds');
        await shootNarrow(org.page, 'tournament-event-rounds', 'the event page, rounds');
      });

      await step('the crosstable page: 12 rows, 5 round columns', async () => {
        await org.page.click('#tab-standings');
        await org.page.click('#link-crosstable');
        await org.page.waitForURL(new RegExp(`/t/${id}/crosstable$`));
        await org.page.waitForSelector('#crosstable tbody tr');
        const rows = await org.page.locator('#crosstable tbody tr').count();
        const cols = await org.page.locator('#crosstable thead th.round-col').count();
        check(rows === 12 && cols === 5, `12 rows and 5 round columns: ${rows} × ${cols}`);
        const cells = await org.page.$$eval('#crosstable tbody td.cell', (td) => td.map((x) => x.textContent));
        check(
          cells.length === 60 && cells.every((c) => /^\d{1,2}[☗☖][+-]$/.test(c)),
          `every cell an opponent, a colour and a result: ${cells.join(' ')}`,
        );
        check(cells.filter((c) => c.endsWith('+')).length === 30, 'as many wins as games');
        await shootNarrow(org.page, 'tournament-crosstable', 'the crosstable');
      });

      await step('the pairing sheet of round 5 and the CSV', async () => {
        await org.page.goto(`${BASE}/t/${id}/rounds/5/sheet`);
        await org.page.waitForSelector('#pairing-sheet');
        check((await org.page.locator('#pairing-sheet .sheet-row').count()) === 6, 'six boards on the sheet');
        await org.page.screenshot({ path: join(shots, 'tournament-sheet.png'), fullPage: true });
        const csv = await fetchRetry(`${BASE}/api/tournaments/${id}/crosstable.csv`);
        check(csv.ok, `the CSV: ${csv.status}`);
      });
      for (const p of open) await p.context.close();
    });

    await puzzleTests({
      browser,
      base: BASE,
      test,
      check,
      newPage,
      shootNarrow,
      clickSquare,
      checkDrawing,
      checkPosition,
      fetchRetry,
      shots,
    });
    await analysisScenarios({ browser, base: BASE, test, check, newPage, shootNarrow, squareCenter });
  } finally {
    await browser.close();
    await server.stop();
  }
  if (cspViolations.length > 0) {
    results.push({ name: 'no Content-Security-Policy violations', ok: false });
    console.log(`FAIL the Content-Security-Policy blocked ${cspViolations.length} things (above)`);
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL setup: ${e?.stack ?? e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
