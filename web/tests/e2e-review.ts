// Browser scenarios of the review: a KIF file imported, stepped through,
// analysed, downloaded as KIF and CSA, a mate search; variations listed and
// added, a comment saved, continuing against the computer.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

import { dragSquare } from './board';
import { BASE, sleep, fetchRetry, api, gameId, test, check, newPage, shootNarrow, shots, textOf } from './e2e-harness';

export async function reviewScenarios(browser: Browser): Promise<void> {
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
    // Chosen from the keyboard: Tab from "Preview" to the page's own file
    // button, Enter opens the file dialog. The dialog is awaited from
    // before the first key: Playwright intercepts file dialogs only once
    // its browser has been told to, which a key pressed at once could beat
    // (the dialog then never reached the test, about one run in two).
    const dialog = page.waitForEvent('filechooser');
    await page.focus('#import-submit');
    await page.keyboard.press('Tab');
    check(
      (await page.evaluate(() => document.activeElement?.textContent)) === 'Choose a file…',
      'Tab reaches the file button',
    );
    await page.keyboard.press('Enter');
    await (await dialog).setFiles({ name: 'game.kif', mimeType: 'text/plain', buffer: Buffer.from(kif) });
    // The file is previewed first, then saved.
    await page.waitForSelector('#import-preview #import-moves .move[data-ply="6"]');
    await page.click('#import-save');
    await page.waitForURL(/\/review\/[0-9a-f]{16}$/, { timeout: 10000 });
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.waitForSelector('#moves .move[data-ply="6"]');
    check((await textOf(page, '.review-title')).includes('Alice'), 'the players are shown');
    const reviewInfo = await textOf(page, '#review-result');
    check(
      reviewInfo.includes('5 Jan 2024') && reviewInfo.includes('30 min'),
      `the record's own day and time control: ${reviewInfo}`,
    );
    // Both sides pushed their rook pawns: Static Rook, in words under the heading.
    const tags = await textOf(page, '#review-strategy');
    check(tags === 'Strategy: ☗ Static Rook — ☖ Static Rook · Double Static Rook', `the strategy line: ${tags}`);
    // Step through the main line with the keyboard and the buttons.
    await page.keyboard.press('ArrowRight');
    check((await page.getAttribute('#moves .move.current', 'data-ply')) === '1', 'ArrowRight shows move 1');
    check((await textOf(page, '#comments')).includes('A comment on the first move'), 'the comment of move 1');
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
    const inView = async (sel: string) => {
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
    check((await page.getAttribute('#moves .move.current', 'data-ply')) === '3', 'a click on the graph jumps to ply 3');
    check((await page.evaluate(() => window.scrollY)) === 0, 'the page did not scroll away from the board');
    check(
      (await inView('.board')) && (await inView('#moves .move.current')),
      'the board and the current move stay in view',
    );
    const pointTitle = await textOf(page, '#eval-graph circle[data-ply="3"] title');
    check(
      /^3: \d+% \(([+-]?\d+\.\d\d|[☗☖] #\d+)\)$/.test(pointTitle),
      `a point's title gives the win rate and the evaluation in pawns, as the analysis board: ${pointTitle}`,
    );
    await page.waitForSelector('.board svg.sg-shapes line, .board svg.sg-shapes path', {
      state: 'attached',
      timeout: 5000,
    });
    check((await textOf(page, '#eval-now')).length > 0, 'the evaluation of the shown position');
    // The best move is written in the move list's notation (Western in English), not USI.
    const best = await textOf(page, '#best-move');
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
    const row = await textOf(page, `.archive-row[data-id="${id}"]`);
    check(
      row.includes('5 Jan 2024') && row.includes('30 min') && !row.includes('((') && !row.includes('))'),
      `the archive shows the record's day and time control: ${row}`,
    );
    // The strategy filter, chosen by its words: Alice's game is Double Static Rook, not Fourth-file Rook.
    await page.waitForSelector('#archive-strategy option[value="double_static_rook"]', { state: 'attached' });
    await page.selectOption('#archive-strategy', { label: 'Double Static Rook' });
    await page.click('#archive-form button[type="submit"]');
    await page.waitForSelector('#archive-list[data-query*="strategy=double_static_rook"]');
    check((await page.locator(`.archive-row[data-id="${id}"]`).count()) === 1, 'found by its line');
    await page.selectOption('#archive-strategy', { label: 'Fourth-file Rook' });
    await page.click('#archive-form button[type="submit"]');
    await page.waitForSelector('#archive-list[data-query*="strategy=fourth_file_rook"]');
    check((await page.locator('.archive-row').count()) === 0, 'no Fourth-file Rook game of Alice');
    await page.selectOption('#archive-strategy', { label: 'Any' });
    await page.click('#archive-form button[type="submit"]');
    await page.waitForSelector('#archive-list[data-query]:not([data-query*="strategy"])');
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
    await page.waitForSelector('#import-save');
    await page.click('#import-save');
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
    check((await page.inputValue('#sfen')) === varSfen, `the variation's position: ${await page.inputValue('#sfen')}`);
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
      promoted.nodes[1].variations[0].map((n: { usi: string }) => n.usi).join(' ') === '3c3d 2g2f 8c8d',
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
}
