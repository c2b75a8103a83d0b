// Browser tests of the analysis board (issue 16): the position editor sets
// up a position by dragging pieces from the trays, a piece in hand and the
// side to move; an illegal setup is refused with the reason; the analysis
// board shows the engine's line; a line clicked is played; the export; the
// share link opened in a new page shows the same position and moves.
// Called by e2e.ts's main().

import type { Browser, Page } from 'playwright-core';

import { squareCenter } from './board';
import { BASE, check, newPage, shootNarrow, test } from './e2e-harness';

import { textOf } from './e2e-harness';
/** Drags a piece from the editor's tray (`piece`: "sente king") to square `key`. */
async function dragFromTray(page: Page, piece: string, key: string): Promise<void> {
  const tray = page.locator(`.editor-tray [data-piece="${piece}"]`);
  await tray.scrollIntoViewIfNeeded();
  // The board forgets its cached position on the scroll event, which comes with the next frame.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await tray.boundingBox();
  if (!box) throw new Error(`no tray piece ${piece}`);
  const to = await squareCenter(page, key, 'sente');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move((box.x + to.x) / 2, (box.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

export async function analysisScenarios(browser: Browser): Promise<void> {
  const base = BASE;
  await test('analysis board: the editor sets up a position, the engine finds its mate, the share link reopens it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${base}/`);
    await page.click('#link-analysis');
    await page.waitForSelector('#analysis-edit');
    await page.click('#analysis-edit');
    await page.waitForSelector('#editor-clear');
    await page.click('#editor-clear');
    check((await page.inputValue('#editor-sfen')) === '9/9/9/9/9/9/9/9/9 b - 1', 'the board is cleared');
    await dragFromTray(page, 'sente king', '5i');
    // One king short of a position: the server says why.
    await page.click('#editor-analyse');
    await page.waitForSelector('#editor-error:not(:empty)');
    const why = await textOf(page, '#editor-error');
    check(why.endsWith('cannot be analysed: Gote has no king'), `the refusal: ${why}`);
    await dragFromTray(page, 'gote king', '5a');
    await dragFromTray(page, 'gote gold', '5g');
    await page.click('#hand-plus-gote-gold');
    await page.selectOption('#editor-turn', 'gote');
    const setup = '4k4/9/9/9/9/9/4g4/9/4K4 w g 1';
    const sfen = await page.inputValue('#editor-sfen');
    check(sfen === setup, `the set-up position: ${sfen}`);
    await shootNarrow(page, 'analysis-editor', 'the position editor');
    await page.click('#editor-analyse');
    await page.waitForSelector('#analysis-sfen');
    check((await page.inputValue('#analysis-sfen')) === setup, 'the analysis board shows the set-up position');
    // The engine's line: Gote mates in one with the gold drop.
    await page.waitForFunction(
      () => document.querySelector('#engine-lines .engine-score')?.textContent === '☖ #1',
      null,
      { timeout: 20000 },
    );
    const first = await textOf(page, '#engine-lines .engine-line[data-line="0"] .pv-move');
    check(first.includes('G*5h'), `the mating drop in Western notation: ${first}`);
    check((await page.locator('svg.sg-shapes line').count()) > 0, 'an arrow on the board');
    await shootNarrow(page, 'analysis-board', 'the analysis board');
    // The line clicked is played on the board.
    await page.click('#engine-lines .engine-line[data-line="0"] .pv-move');
    await page.waitForSelector('#moves .move.current[data-ply="1"]');
    const after = await page.inputValue('#analysis-sfen');
    check(after === '4k4/9/9/9/9/9/4g4/4g4/4K4 b - 2', `after the drop: ${after}`);
    // Export as KIF through the server.
    await page.selectOption('#export-format', 'kif');
    await page.click('#export-show');
    await page.waitForSelector('#export-text');
    const kif = await page.inputValue('#export-text');
    check(kif.includes('５八金打'), `the KIF has the drop: ${kif}`);
    const png = await page.getAttribute('#analysis-png', 'href');
    const res = await page.request.get(base + png);
    check(res.ok() && res.headers()['content-type'] === 'image/png', `the PNG: ${res.status()}`);
    // The share link, opened in a new page, shows the same position and moves.
    const link = await page.inputValue('#share-link');
    check(/\/analysis\?usen=[0-9a-zA-Z_.~-]+&ply=1$/.test(link), `the share link: ${link}`);
    const other = await newPage(browser, 'ja-JP');
    await other.page.goto(link);
    await other.page.waitForSelector('#analysis-sfen');
    check((await other.page.inputValue('#analysis-sfen')) === after, 'the shared position');
    check((await other.page.locator('#moves .move').count()) === 2, 'the start and one move');
    const move = await textOf(other.page, '#moves .move[data-ply="1"]');
    check(move.includes('５八金打'), `the move in Japanese: ${move}`);
    await other.page.click('#nav-first');
    check((await other.page.inputValue('#analysis-sfen')) === setup, 'the shared start position');
    await other.context.close();
    await context.close();
  });

  await test('analysis board: opened from a game review with the shown position and the rest of the line', async () => {
    const { context, page } = await newPage(browser);
    const kif = ['手合割：平手', '1 ７六歩(77)', '2 ３四歩(33)', '3 ２六歩(27)', '4 ８四歩(83)', ''].join('\n');
    const res = await page.request.post(`${base}/api/import?save=1`, { data: kif });
    check(res.ok(), `import: ${res.status()}`);
    const { id } = await res.json();
    await page.goto(`${base}/review/${id}`);
    await page.waitForSelector('#nav-next');
    await page.click('#nav-first');
    await page.click('#nav-next');
    await page.click('#nav-next');
    await page.click('#open-analysis');
    await page.waitForSelector('#analysis-sfen');
    const sfen = await page.inputValue('#analysis-sfen');
    check(
      sfen === 'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1',
      `the shown position: ${sfen} (${page.url()})`,
    );
    check((await page.locator('#moves .move').count()) === 3, 'the start and the two moves after it');
    await shootNarrow(page, 'analysis-from-review', 'the analysis board opened from a review');
    await context.close();
  });
}
