// Browser scenario of the import page, in Russian: a record pasted is shown
// first (the players, the moves, a board), saved as private by a logged-in
// player, and the same record imported again opens the one saved before
// with a note saying so.

import { join } from 'node:path';
import type { Browser } from 'playwright-core';

import { BASE, check, newPage, shootNarrow, shots, test, textOf } from './e2e-harness';

export async function importScenarios(browser: Browser): Promise<void> {
  await test('import (Russian): a preview with players, moves and a board, saved as private, the same again opens the saved one', async () => {
    const stamp = Date.now().toString().slice(-6);
    const name = `Мария_${stamp}`;
    const { context, page } = await newPage(browser, 'ru-RU');
    // Registered through the dialog, as a person does.
    await page.goto(`${BASE}/`);
    await page.click('#register-open');
    await page.fill('#login-name', name);
    await page.fill('#login-password', 'correct horse battery');
    await page.click('#login-submit');
    await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);

    // Players named with the stamp, so that no earlier run's record is the same.
    const sente = `Сидоров ${stamp}`;
    const gote = `Петров ${stamp}`;
    const kif = [
      '開始日時：2025/03/02 10:00',
      '手合割：平手',
      `先手：${sente}`,
      `後手：${gote}`,
      '手数----指手---------消費時間--',
      '   1 ７六歩(77)',
      '   2 ３四歩(33)',
      '   3 ２六歩(27)',
      '   4 ８四歩(83)',
      '   5 投了',
      '',
    ].join('\n');
    await page.click('#link-import');
    await page.waitForSelector('#import-text');
    await page.fill('#import-text', kif);
    await page.click('#import-submit');
    await page.waitForSelector('#import-preview');
    const players = await textOf(page, '#import-players');
    check(players.includes(sente) && players.includes(gote), `the players: ${players}`);
    const info = await textOf(page, '#import-info');
    check(info.includes('2025'), `the day it was played: ${info}`);
    const moves = await page.locator('#import-moves .move').allTextContents();
    // The start and four moves, in the notation of the reader's language (Russian).
    check(moves.length === 5, `the start and 4 moves: ${moves.join(' | ')}`);
    check(moves[1].startsWith('1.') && !/7g7f/.test(moves[1]), `a move in the app's notation: ${moves[1]}`);
    // The board shows the last position: 40 pieces, and it can be stepped back.
    await page.waitForSelector('#import-preview sg-board piece');
    const pieces = await page.locator('#import-preview sg-board piece').count();
    check(pieces === 40, `the board draws the position: ${pieces} pieces`);
    check((await textOf(page, '#import-ply')) === '4 / 4', 'the last position is shown');
    await page.click('#import-first');
    check((await textOf(page, '#import-ply')) === '0 / 4', 'the first position');
    await page.click('#import-next');
    check((await textOf(page, '#import-ply')) === '1 / 4', 'after the first move');
    check((await page.locator('#import-existing').count()) === 0, 'not in the archive yet');
    // Who may see it: private is open to a logged-in player.
    const privateLabel = await textOf(page, 'label[for="import-visibility-private"]');
    check(privateLabel.includes('Лично'), `the private choice in Russian: ${privateLabel}`);
    check(!(await page.isDisabled('#import-visibility-private')), 'private may be chosen when logged in');
    await page.check('#import-visibility-private');
    await shootNarrow(page, 'import-preview-russian', 'the import preview');
    await page.click('#import-save');
    await page.waitForURL(/\/review\/[0-9a-f]{16}$/, { timeout: 10000 });
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.waitForSelector('#moves .move[data-ply="4"]');
    check((await textOf(page, '.review-title')).includes(sente), 'the review shows the record');
    check((await textOf(page, '#review-note')) === '', 'no note for a new record');

    // Private: a guest (another browser) is told there is no such game.
    const guest = await newPage(browser, 'ru-RU');
    const res = await guest.page.request.get(`${BASE}/api/games/${id}/record?format=json`);
    check(res.status() === 404, `a guest cannot read the private record: ${res.status()}`);
    // Logged out, private cannot be chosen, and the page says why.
    await guest.page.goto(`${BASE}/import`);
    await guest.page.waitForSelector('#import-text');
    await guest.page.fill('#import-text', kif);
    await guest.page.click('#import-submit');
    await guest.page.waitForSelector('#import-preview');
    check(await guest.page.isDisabled('#import-visibility-private'), 'private is disabled for a guest');
    const hint = await textOf(guest.page, '#import-private-hint');
    check(hint.includes('Войдите'), `why, in Russian: ${hint}`);
    check((await guest.page.locator('#import-existing').count()) === 0, "someone else's private record is not offered");
    await guest.page.screenshot({ path: join(shots, 'import-guest-russian.png') });
    await guest.context.close();

    // The same record again: the preview says it is there, and saving opens it.
    await page.click('#link-import');
    await page.waitForSelector('#import-text');
    await page.fill('#import-text', kif);
    await page.click('#import-submit');
    await page.waitForSelector('#import-existing');
    const existing = await textOf(page, '#import-existing');
    check(existing.includes('уже есть в архиве'), `the preview says it is in the archive: ${existing}`);
    await page.click('#import-save');
    await page.waitForURL(new RegExp(`/review/${id}$`), { timeout: 10000 });
    await page.waitForFunction(() => (document.querySelector('#review-note')?.textContent ?? '') !== '');
    const note = await textOf(page, '#review-note');
    check(note.includes('Уже есть в архиве'), `the note on the existing record: ${note}`);
    await shootNarrow(page, 'import-duplicate-russian', 'the review opened for a duplicate');
    await context.close();
  });
}
