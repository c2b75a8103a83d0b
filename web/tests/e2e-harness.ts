// What every browser scenario uses: the server under test (started here
// unless SHOGI_URL names one), the browser's pages, the API seen from the
// tests, `test` and `check`, and the record of results that e2e.ts prints.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import type { GameState } from '../src/api/api';

const here = dirname(fileURLToPath(import.meta.url));
export const webDir = resolve(here, '..');
export const repoDir = resolve(webDir, '..');
export const shots = join(webDir, 'test-results');
mkdirSync(shots, { recursive: true });

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
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

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

async function waitForHttp(url: string, ms: number): Promise<void> {
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

/**
 * The port of the server's CSA protocol (programs' games, docs/CSA.md): the
 * one the tests started it with, or SHOGI_CSA_PORT for a server given by
 * SHOGI_URL; `null` when there is none.
 */
export let CSA_PORT: number | null = process.env.SHOGI_CSA_PORT ? Number(process.env.SHOGI_CSA_PORT) : null;

/** The server under test: SHOGI_URL's, or one started on a free port with a fresh database. */
export async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.SHOGI_URL) return { url: process.env.SHOGI_URL.replace(/\/$/, ''), stop: async () => {} };
  const port = await freePort();
  const csa = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'shogi-e2e-'));
  const cmd = (
    process.env.SHOGI_SERVE_CMD ??
    (process.env.SHOGI_BIN
      ? `'${process.env.SHOGI_BIN}' serve --port {port} --db {db} --no-rate-limits --csa-port {csa}`
      : 'cargo run --quiet -p shogi-cli -- serve --port {port} --db {db} --no-rate-limits --csa-port {csa}')
  )
    .replaceAll('{port}', String(port))
    .replaceAll('{csa}', String(csa))
    .replaceAll('{db}', join(dir, 'games.db'));
  if (!process.env.SHOGI_SERVE_CMD || process.env.SHOGI_SERVE_CMD.includes('{csa}')) CSA_PORT = csa;
  console.log(`starting: ${cmd}`);
  const child = spawn('sh', ['-c', `exec ${cmd}`], { cwd: repoDir, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  serverDb = join(dir, 'games.db');
  await waitForHttp(`${url}/`, 15 * 60 * 1000);
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        if (child.exitCode !== null) r();
        else child.once('exit', () => r());
        setTimeout(r, 8000);
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The database of the server the tests started (none with SHOGI_URL). */
let serverDb: string | null = null;

/**
 * Gives account `name` a role as the server's operator does, with
 * `shogi user role NAME ROLE --db <the server's database>` (the command in
 * SHOGI_ROLE_CMD, `{name}`, `{role}` and `{db}` replaced, for a server
 * started elsewhere).
 */
export async function setRole(name: string, role: 'player' | 'moderator' | 'admin'): Promise<void> {
  const template =
    process.env.SHOGI_ROLE_CMD ??
    (serverDb === null
      ? null
      : process.env.SHOGI_BIN
        ? `'${process.env.SHOGI_BIN}' user role {name} {role} --db {db}`
        : 'cargo run --quiet -p shogi-cli -- user role {name} {role} --db {db}');
  if (template === null) throw new Error('a server given by SHOGI_URL needs SHOGI_ROLE_CMD to set roles');
  const cmd = template
    .replaceAll('{name}', `'${name}'`)
    .replaceAll('{role}', role)
    .replaceAll('{db}', serverDb ?? '');
  const child = spawn('sh', ['-c', cmd], { cwd: repoDir, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${cmd} exited with ${code}`);
}

/**
 * Runs `shogi user ARGS --db <the server's database>` as the server's
 * operator does (the command in SHOGI_USER_CMD, `{args}` and `{db}`
 * replaced, for a server started elsewhere) and returns what it printed.
 */
export async function shogiUser(args: string[]): Promise<string> {
  const template =
    process.env.SHOGI_USER_CMD ??
    (serverDb === null
      ? null
      : process.env.SHOGI_BIN
        ? `'${process.env.SHOGI_BIN}' user {args} --db {db}`
        : 'cargo run --quiet -p shogi-cli -- user {args} --db {db}');
  if (template === null) throw new Error('a server given by SHOGI_URL needs SHOGI_USER_CMD for accounts');
  const cmd = template.replaceAll('{args}', args.map((a) => `'${a}'`).join(' ')).replaceAll('{db}', serverDb ?? '');
  const child = spawn('sh', ['-c', cmd], { cwd: repoDir, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += String(d);
  });
  // 'close': the process ended and its output was read.
  const code = await new Promise<number | null>((r) => child.once('close', r));
  if (code !== 0) throw new Error(`${cmd} exited with ${code}`);
  return out;
}

// ---------- helpers ----------

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The server's address, set once it is up. */
export let BASE = '';
export function setBase(url: string): void {
  BASE = url;
}

/** fetch, retried on network errors (a reused keep-alive connection the server just closed). */
export async function fetchRetry(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 4) throw e;
      await sleep(200 * attempt);
    }
  }
}

/**
 * A JSON answer of the server as the tests read it: any shape, checked by
 * the test that reads it (the client's own types are used where one fits).
 */
// biome-ignore lint/suspicious/noExplicitAny: the scenarios read whatever JSON the server answers and check it
export type Json = any;

export async function api(path: string): Promise<Json> {
  const r = await fetchRetry(BASE + path);
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

/** Polls the game `id` until `pred` holds. */
export async function waitState(
  id: string,
  pred: (s: GameState) => unknown,
  what: string,
  ms = 15000,
): Promise<GameState> {
  const end = Date.now() + ms;
  let s: GameState | undefined;
  while (Date.now() < end) {
    s = (await api(`/api/games/${id}`)) as GameState;
    if (pred(s)) return s;
    await sleep(150);
  }
  throw new Error(`timed out waiting for ${what}; moves=${s?.moves?.join(' ')}`);
}

export async function post(path: string, body: unknown): Promise<Json> {
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
export async function openWithToken(page: Page, created: { id: string; token: string }): Promise<void> {
  await page.goto(`${BASE}/`);
  await page.evaluate(([id, token]) => localStorage.setItem(`shogi.token.${id}`, token), [created.id, created.token]);
  await page.goto(`${BASE}/g/${created.id}`);
  await page.waitForSelector('.board sg-board piece');
  await page.waitForSelector('#seat');
}

export function gameId(page: Page): string {
  const m = new URL(page.url()).pathname.match(/^\/g\/([0-9a-f]{16})/);
  if (!m) throw new Error(`not on a game page: ${page.url()}`);
  return m[1];
}

// ---------- the tests ----------

export const results: { name: string; ok: boolean }[] = [];
export const cspViolations: string[] = [];

/** Runs the scenario `name` (unless E2E_ONLY names another), recording whether it passed. */
export async function test(name: string, fn: () => Promise<void>): Promise<void> {
  if (process.env.E2E_ONLY && !name.includes(process.env.E2E_ONLY)) return;
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${e instanceof Error ? e.stack : e}`);
  }
}

/** Runs `fn` until it does not throw, for at most `ms` (something the page shows once its data arrives). */
export async function retry<T>(fn: () => Promise<T>, ms: number): Promise<T> {
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

export function check(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** A page of its own browser context (its own storage), at 1280×900. */
export async function newPage(browser: Browser, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
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
export async function shootNarrow(page: Page, name: string, what: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(shots, `${name}.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 360, `no horizontal scroll on ${what} at 360 px: ${width}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Holds back the page's requests to `url` (a Playwright URL pattern) until
 * the returned function is called, which lets them through and stops
 * holding later ones: a slow answer arriving at a moment the test chooses.
 */
export async function holdBack(page: Page, url: string): Promise<() => Promise<void>> {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  // The held requests, let through before the route goes (a route removed
  // first would have answered them already).
  const passed: Promise<void>[] = [];
  await page.route(url, (route) => {
    const through = held.then(() => route.continue());
    passed.push(through);
    return through;
  });
  return async () => {
    release();
    await Promise.all(passed);
    await page.unroute(url);
  };
}

/**
 * Checks that every piece of Japanese text the reader sees on `page` (each
 * visible element whose own text holds kana or kanji) was drawn in a font
 * that has Japanese, as the browser reports the fonts it drew each element's
 * text with: the font the app serves, or a Japanese font of the system. A
 * font without those characters draws each as the same empty box.
 */
export async function checkJapaneseDrawn(page: Page, what: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const count = await page.evaluate(() => {
    const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/;
    let n = 0;
    for (const e of document.body.querySelectorAll('*')) {
      const own = [...e.childNodes]
        .filter((c) => c.nodeType === Node.TEXT_NODE)
        .map((c) => c.textContent)
        .join('');
      if (japanese.test(own) && e.getClientRects().length > 0 && e.tagName !== 'OPTION') {
        e.setAttribute('data-ja-probe', String(n++));
      }
    }
    return n;
  });
  check(count > 0, `${what}: no Japanese text on the page to check`);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-ja-probe]' });
    const japaneseFont = /CJK|JP|Japanese|Gothic|Hiragino|Meiryo|Mincho|IPA|Takao|VL |Sazanami|Droid Sans Fallback/i;
    const boxes: string[] = [];
    for (const nodeId of nodeIds) {
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      if (!fonts.some((f) => f.isCustomFont || japaneseFont.test(f.familyName))) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
        boxes.push(`${outerHTML.slice(0, 80)} (${fonts.map((f) => f.familyName).join(', ')})`);
      }
    }
    check(boxes.length === 0, `${what}: Japanese drawn in a font without it: ${boxes.join('; ')}`);
  } finally {
    await cdp.detach();
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('[data-ja-probe]')) e.removeAttribute('data-ja-probe');
    });
  }
}

/** Creates a game through the start screen's form, choosing `choices` (select name → value). */
export async function createFromStartScreen(page: Page, choices: Record<string, string>): Promise<void> {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('#start-form');
  for (const [name, value] of Object.entries(choices)) {
    await page.selectOption(`#start-form select[name="${name}"]`, value);
  }
  await page.click('#create');
  await page.waitForURL(/\/g\/[0-9a-f]{16}$/);
  await page.waitForSelector('.board sg-board piece');
}

/** The text of the first element `selector` matches ('' when it has none). */
export async function textOf(page: Page, selector: string, options?: { timeout?: number }): Promise<string> {
  return (await page.textContent(selector, options)) ?? '';
}

/** Registers account `name` from the start page's dialog (the password is the tests' own). */
export async function register(page: Page, name: string, password = 'correct horse battery'): Promise<void> {
  await page.goto(`${BASE}/`);
  await page.click('#register-open');
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await page.click('#login-submit');
  await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name, {
    timeout: 10000,
  });
}

/**
 * Pairs rounds `from` to `to` of event `id` and enters every result by the
 * API with the organiser's session of `page`: the lower number wins, board 1
 * is drawn.
 */
export async function playRoundsByApi(page: Page, id: string, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    const r = await page.evaluate(async (eid) => {
      const res = await fetch(`/api/tournaments/${eid}/rounds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return res.json();
    }, id);
    check(Array.isArray(r.pairings), `round ${n} paired: ${JSON.stringify(r)}`);
    for (const b of r.pairings as Json[]) {
      const result = b.board === 1 ? 'draw' : b.sente < b.gote ? 'sente' : 'gote';
      const status = await page.evaluate(
        async ([eid, round, board, res]) =>
          (
            await fetch(`/api/tournaments/${eid}/rounds/${round}/boards/${board}`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ result: res }),
            })
          ).status,
        [id, n, b.board, result] as const,
      );
      check(status === 200, `round ${n} board ${b.board}: ${status}`);
    }
  }
}
