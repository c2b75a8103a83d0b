// Browser tests of the learn pages (called from e2e.ts's main): a beginner
// in Russian completes the first lessons by clicking on the board (reach, a quiz, capture, drops), a drop the rules refuse (nifu)
// is explained in Russian, progress survives a reload, and the coordinates
// trainer counts clicks from both sides in two notations. Screenshots at
// 1280×900 and 390×844; no sideways scroll at 360 px.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { clickCountedSquare, clickSquare, drawnBoard } from './board';
import { BASE, check, newPage, shootNarrow, shots, test, textOf } from './e2e-harness';

/** Runs the learn scenarios. */
export async function learnTests(browser: Browser): Promise<void> {
  const base = BASE;
  const ready = (page: Page) => page.waitForSelector('.learn-side[data-ready="yes"]');
  /** Plays board moves by clicking origin and destination, waiting for the board each time. */
  const plays = (page: Page) =>
    page.evaluate(() => Number(document.querySelector<HTMLElement>('.learn-side')?.dataset.plays ?? '0'));
  /** Waits until the page has handled one more move than `before`. */
  const handled = (page: Page, before: number) =>
    page.waitForFunction(
      (b) => Number(document.querySelector<HTMLElement>('.learn-side')?.dataset.plays ?? '0') > b,
      before,
    );
  const clickMoves = async (page: Page, moves: string[]) => {
    for (const mv of moves) {
      await ready(page);
      const before = await plays(page);
      await clickSquare(page, mv.slice(0, 2), 'sente');
      await clickSquare(page, mv.slice(2, 4), 'sente');
      await handled(page, before);
    }
  };
  /** Waits for the feedback to contain `part` (or to be exactly `part` when `exact`). */
  const feedback = async (page: Page, part: string, what: string, exact = false) => {
    await page
      .waitForFunction(
        ([p, x]) => {
          const text = document.querySelector('#lesson-feedback')?.textContent;
          return text !== undefined && (x ? text === p : text.includes(p));
        },
        [part, exact] as [string, boolean],
        { timeout: 10000 },
      )
      .catch(async () => {
        throw new Error(`${what}: feedback ${await textOf(page, '#lesson-feedback').catch(() => 'none')}`);
      });
    return textOf(page, '#lesson-feedback');
  };
  const drop = async (page: Page, role: string, to: string) => {
    await ready(page);
    const before = await plays(page);
    await page.click(`.hand-bottom-el piece.sente.${role}`);
    await clickSquare(page, to, 'sente');
    await handled(page, before);
  };

  await test('learn: a beginner in Russian completes the first lessons by clicking, a refused drop is named in Russian', async () => {
    const { context, page } = await newPage(browser, 'ru-RU');
    await page.goto(`${base}/`);
    await page.waitForSelector('#link-learn');
    check((await textOf(page, '#link-learn')) === 'Обучение', `the header link: ${await textOf(page, '#link-learn')}`);
    await page.click('#link-learn');
    await page.waitForSelector('#lesson-list');
    const items = await page.locator('#lesson-list .lesson-item').count();
    check(items >= 15, `at least 15 lessons: ${items}`);
    check((await textOf(page, '#learn h2')) === 'Учимся играть в сёги', 'the title in Russian');
    await shootNarrow(page, 'learn-list', 'the course list');

    // Lesson 1: walk the king to 5e (the fewest moves), then the quiz.
    await page.click('#lesson-list li:first-child a');
    await page.waitForSelector('#lesson[data-lesson="board"]');
    check((await textOf(page, '#lesson-title')).includes('Доска'), 'the lesson title in Russian');
    // The ranks are labelled a-i, as the lesson's text (and the Russian rules pages) name them; 一-九 on request.
    const ranks = async () => (await drawnBoard(page)).ranks.map((l) => l.text).join('');
    check((await ranks()) === 'ihgfedcba', `rank labels a-i in Russian: ${await ranks()}`);
    check((await textOf(page, '.learn-text')).includes('от a до i'), 'the lesson names the ranks a-i');
    await page.selectOption('#rank-labels', 'kanji');
    await page.waitForFunction(() => document.querySelector('.board coords.ranks coord')?.textContent === '九');
    check((await ranks()) === '九八七六五四三二一', `rank labels 一-九 when chosen: ${await ranks()}`);
    await page.screenshot({ path: join(shots, 'learn-rank-labels-kanji.png') });
    await page.selectOption('#rank-labels', 'latin');
    await page.waitForFunction(() => document.querySelector('.board coords.ranks coord')?.textContent === 'i');
    // A longer way first: the fourth move does not reach the star.
    await clickMoves(page, ['5i4h', '4h4g', '4g4f', '4f4e']);
    const slow = await feedback(page, 'наименьшее', 'not the fewest');
    check(slow === 'Это не наименьшее число ходов: попробуйте ещё раз.', `not the fewest: ${slow}`);
    await clickMoves(page, ['5i5h', '5h5g', '5g5f', '5f5e']);
    check((await feedback(page, 'Отлично!', 'reach solved', true)) === 'Отлично!', 'solved');
    await page.click('#exercise-next');
    await page.waitForSelector('#quiz-choices');
    await page.click('#quiz-choices button[data-value="3g"]');
    await feedback(page, 'Не совсем', 'a wrong answer');
    await page.click('#quiz-choices button[data-value="7g"]');
    await feedback(page, 'Отлично!', 'quiz solved', true);
    await page.click('#lesson-next');

    // Lesson 2: the king, reach then capture (a step into a pawn's attack is refused).
    await page.waitForSelector('#lesson[data-lesson="king"]');
    await clickMoves(page, ['5e5d', '5d4c', '4c5c', '5c6c']);
    await feedback(page, 'Отлично!', 'king reach', true);
    await page.click('#exercise-next');
    await page.waitForSelector('#exercise-goal[data-kind="capture"]');
    await clickMoves(page, ['5e4e']);
    const selfCheck = await feedback(page, 'шахом', 'self-check refused');
    check(selfCheck === 'Ваш король останется под шахом', `the rule in Russian: ${selfCheck}`);
    await clickMoves(page, ['5e4d', '4d5d', '5d6d']);
    await feedback(page, 'Отлично!', 'capture solved', true);
    await shootNarrow(page, 'learn-lesson', 'a lesson page');

    // Lesson 3: the rook into the far zone is simply played: promotion is not taught yet, so nothing asks.
    await page.click('#lesson-next');
    await page.waitForSelector('#lesson[data-lesson="rook"]');
    await clickMoves(page, ['9i9a']);
    check((await page.locator('sg-promotion-choices').count()) === 0, 'no promotion choice before lesson 10');
    await clickMoves(page, ['9a1a', '1a1i']);
    await feedback(page, 'Отлично!', 'rook reach', true);

    // Nifu: the drop is refused and the rule named; then the drop that is allowed.
    await page.goto(`${base}/learn/nifu`);
    await page.waitForSelector('#lesson[data-lesson="nifu"]');
    await drop(page, 'pawn', '7e');
    const nifu = await feedback(page, 'Нифу', 'nifu named');
    check(nifu.includes('Нифу: вторая пешка на вертикали 7'), `nifu in Russian: ${nifu}`);
    await page.screenshot({ path: join(shots, 'learn-nifu.png') });
    await page.click('#exercise-next');
    await page.waitForSelector('#exercise-goal[data-kind="drop"]');
    await drop(page, 'pawn', '5d');
    await feedback(page, 'Нифу: вторая пешка на вертикали 5', 'nifu on file 5');
    check(
      !(await page.isVisible('#exercise-next')) && !(await page.isVisible('#lesson-next')),
      'a refused drop does not solve it',
    );
    await drop(page, 'pawn', '3d');
    await feedback(page, 'Отлично!', 'the allowed drop', true);

    // Progress: kept over a reload.
    await page.goto(`${base}/learn`);
    await page.waitForSelector('#lesson-list');
    for (const id of ['board', 'king', 'nifu']) {
      check(await page.locator(`.lesson-item.done[data-lesson="${id}"]`).isVisible(), `${id} shown as done`);
    }
    check(!(await page.locator('.lesson-item.done[data-lesson="rook"]').count()), 'rook not done');
    await page.reload();
    await page.waitForSelector('.lesson-item.done[data-lesson="king"]');

    // Registering merges this browser's progress into the account ...
    const name = `learner${Date.now() % 100000}`;
    const password = 'a long enough password';
    await page.click('#register-open');
    await page.fill('#login-name', name);
    await page.fill('#login-password', password);
    await page.click('#login-submit');
    await page.waitForSelector('#account-name');
    const local = await page.evaluate(() => JSON.parse(localStorage.getItem('shogi.learn.done') ?? 'null'));
    check(local.length === 7, `seven exercises solved here: ${local}`);
    let stored = [];
    for (let i = 0; i < 50 && stored.length < local.length; i++) {
      stored = (await page.evaluate(() => fetch('/api/me/learn').then((r) => r.json()))).done;
      if (stored.length < local.length) await page.waitForTimeout(100);
    }
    check(JSON.stringify(stored) === JSON.stringify(local), `the account has them: ${stored}`);
    await context.close();

    // ... and another browser that logs in gets it.
    const other = await newPage(browser, 'uk-UA');
    await other.page.goto(`${base}/learn`);
    await other.page.waitForSelector('#lesson-list');
    check(!(await other.page.locator('.lesson-item.done').count()), 'a new browser starts empty');
    await other.page.click('#login-open');
    await other.page.fill('#login-name', name);
    await other.page.fill('#login-password', password);
    await other.page.click('#login-submit');
    await other.page.waitForSelector('#account-name');
    await other.page.goto(`${base}/learn`);
    await other.page.waitForSelector('.lesson-item.done[data-lesson="nifu"]');
    check((await textOf(other.page, '#learn h2')) === 'Вчимося грати в сьоґі', 'the course in Ukrainian');
    await other.context.close();
  });

  await test('learn: the coordinates trainer takes clicks and counts, from both sides and in two notations', async () => {
    const { context, page } = await newPage(browser, 'ru-RU');
    await page.goto(`${base}/learn/coordinates`);
    await page.waitForSelector('#coords-start');
    const fromJapanese = (name: string) => {
      const f = '０１２３４５６７８９'.indexOf(name[0]);
      const r = '〇一二三四五六七八九'.indexOf(name[1]);
      return `${f}${'abcdefghi'[r - 1]}`;
    };
    /** Clicks `key` on the unlabelled board by counting its squares from the top left, as seen from `orientation`. */
    const clickCounted = (key: string, orientation: 'sente' | 'gote') => {
      const file = Number(key[0]);
      const rank = 'abcdefghi'.indexOf(key[1]);
      return orientation === 'sente'
        ? clickCountedSquare(page, 9 - file, rank)
        : clickCountedSquare(page, file - 1, 8 - rank);
    };
    const round = async (orientation: 'sente' | 'gote', toKey: (name: string) => string) => {
      await page.click('#coords-start');
      for (let i = 1; i <= 3; i++) {
        const name = await textOf(page, '#coords-prompt');
        await clickCounted(toKey(name), orientation);
        await page.waitForFunction((n) => document.querySelector('#coords-score')?.textContent === String(n), i);
      }
      // A wrong click is not counted.
      const name = toKey(await textOf(page, '#coords-prompt'));
      await clickCounted(name === '5e' ? '5f' : '5e', orientation);
      check((await textOf(page, '#coords-score')) === '3', 'a miss is not a point');
      await page.waitForSelector('#coords-result', { timeout: 40000 });
      const result = await textOf(page, '#coords-result');
      check(result.includes('найдено 3') && result.includes('промахов 1'), `the result: ${result}`);
      check((await textOf(page, '#coords-best')) === '3', 'the best kept');
    };
    await round('sente', (n) => n);
    await shootNarrow(page, 'learn-coordinates', 'the coordinates trainer');
    await page.selectOption('#coords-style', 'japanese');
    await page.selectOption('#coords-orientation', 'gote');
    check((await textOf(page, '#coords-best')) === '0', 'a best per notation and side');
    await round('gote', fromJapanese);
    await page.reload();
    await page.waitForSelector('#coords-start');
    check((await textOf(page, '#coords-best')) === '3', 'the best survives a reload');
    // Keyboard: Enter on the board starts a run, the arrows walk a cursor from 5e to the named square, Enter picks it.
    await page.selectOption('#coords-style', 'usi');
    await page.selectOption('#coords-orientation', 'sente');
    await page.focus('#coords-board');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^[1-9][a-i]$/.test(document.querySelector('#coords-prompt')?.textContent ?? ''));
    const target = await textOf(page, '#coords-prompt');
    const file = Number(target[0]);
    const rank = 'abcdefghi'.indexOf(target[1]);
    for (let i = 0; i < Math.abs(file - 5); i++) await page.keyboard.press(file < 5 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(rank - 4); i++) await page.keyboard.press(rank > 4 ? 'ArrowDown' : 'ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#coords-score')?.textContent === '1');
    await context.close();
  });
}
