// Browser scenarios of the boards and the start screen: every board draws
// each piece a square wide on its square (lesson, puzzle, analysis, editor,
// review and game boards, at 1280 and 390 px), an unknown page or game, the
// start screen's settings, and the side labels of a handicap game.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

import { checkDrawing, checkPosition } from './board';
import {
  BASE,
  fetchRetry,
  api,
  test,
  retry,
  check,
  newPage,
  shootNarrow,
  createFromStartScreen,
  shots,
  webDir,
  textOf,
  checkJapaneseDrawn,
} from './e2e-harness';

export async function boardScenarios(browser: Browser): Promise<void> {
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
    check(res?.status() === 404, `status of /games: ${res?.status()}`);
    await page.waitForSelector('#not-found');
    const pageText = await textOf(page, '#not-found h2');
    check(pageText.includes('Такой страницы нет'), `Russian page text: ${pageText}`);
    await page.screenshot({ path: join(shots, 'not-found-page.png') });
    await page.goto(`${BASE}/review/0123456789abcdef`);
    await page.waitForSelector('#not-found');
    const gameText = await textOf(page, '#not-found h2');
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
      const label = (sel: string) => textOf(page, sel);
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
      if (locale !== 'en-US') await checkJapaneseDrawn(page, 'the start screen in Japanese');
      await shootNarrow(
        page,
        locale === 'en-US' ? 'start-handicap' : 'start-handicap-japanese',
        'the start screen with a handicap',
      );
      await context.close();
    }
  });
}
