// Browser scenario of the sheets a Russian club prints and files: a
// 12-player round robin set up in Russian with ranks typed as a Russian
// reader writes them (`1 дан`, `5 кю`), a bad rank refused in Russian, the
// audit log in Russian, the N×N table printed on one A4 landscape page,
// and the CSV for a Russian spreadsheet.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { BASE, api, check, newPage, playRoundsByApi, shots, test, textOf } from './e2e-harness';

export async function clubSheetScenarios(browser: Browser): Promise<void> {
  await test('club sheets: a Russian round robin with ranks, the N×N table printed on one A4 landscape page, the CSV', async () => {
    const stamp = Date.now().toString().slice(-6);
    const { context, page } = await newPage(browser, 'ru-RU');
    /** Runs one named step; on failure the page is screenshot and the step named. */
    const step = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (e) {
        await page.screenshot({ path: join(shots, 'clubsheets-failed.png'), fullPage: true }).catch(() => {});
        throw new Error(`step "${name}" failed: ${e instanceof Error ? e.message : e}`);
      }
    };
    let id = '';
    const eventJson = () => api(`/api/tournaments/${id}`);
    const rowText = (p: Page, n: number) => textOf(p, `#players-table .player-row[data-player="${n}"]`);

    await step('the organiser registers in Russian', async () => {
      await page.goto(`${BASE}/`);
      await page.click('#register-open');
      await page.fill('#login-name', `Клуб_${stamp}`);
      await page.fill('#login-password', 'correct horse battery');
      await page.click('#login-submit');
      await page.waitForSelector('#account-name');
    });

    await step('a 12-player round robin over the board', async () => {
      await page.click('#link-tournaments');
      await page.waitForSelector('#event-form');
      await page.fill('#te-name', `Первенство клуба ${stamp}`);
      await page.fill('#te-place', 'Санкт-Петербург');
      await page.fill('#te-starts', '2026-12-25');
      await page.fill('#te-ends', '2026-12-27');
      await page.selectOption('#te-format', 'round_robin');
      await page.selectOption('#te-play', 'otb');
      await page.click('#te-submit');
      await page.waitForURL(/\/t\/[0-9a-f]{16}$/, { timeout: 10000 });
      id = new URL(page.url()).pathname.split('/')[2];
      const facts = await textOf(page, '#event');
      check(facts.includes('2026 г.'), `the dates in Russian words: ${facts.slice(0, 300)}`);
      check(!facts.includes('2026-12-25'), 'no ISO dates on the page');
    });

    const ranks = ['1 дан', '5 кю', '2дан', '3 КЮ', '', '1 d', '', '10 кю', '', '', '', ''];
    await step('12 players entered by the form, ranks typed in Russian into the visible field', async () => {
      await page.click('#tab-players');
      const rankField = page.getByLabel('Разряд', { exact: true });
      check(await rankField.isVisible(), 'the rank field is visible');
      check((await rankField.getAttribute('placeholder')) === '1 дан, 5 кю', 'the placeholder in Russian');
      for (let n = 1; n <= 12; n++) {
        await page.fill('#ap-name', `Игрок ${n}`);
        await page.fill('#ap-rating', String(2000 - 50 * n));
        await rankField.fill(ranks[n - 1]);
        await page.fill('#ap-club', n % 3 === 0 ? 'Сёги-клуб СПб' : 'Москва');
        await page.click('#ap-submit');
        await page.waitForFunction((k) => document.querySelectorAll('#players-table .player-row').length === k, n, {
          timeout: 10000,
        });
      }
      // Shown in the reader's language, whatever form was typed.
      const shown = [await rowText(page, 1), await rowText(page, 2), await rowText(page, 3), await rowText(page, 4)];
      check(shown[0].includes('1 дан'), `1 дан shown: ${shown[0]}`);
      check(shown[1].includes('5 кю'), `5 кю shown: ${shown[1]}`);
      check(shown[2].includes('2 дан'), `2дан shown as 2 дан: ${shown[2]}`);
      check(shown[3].includes('3 кю'), `3 КЮ shown as 3 кю: ${shown[3]}`);
      check((await rowText(page, 6)).includes('1 дан'), '1 d shown as 1 дан');
      const ev = await eventJson();
      check(ev.players[0].rank === '1d' && ev.players[1].rank === '5k', `stored short: ${ev.players[0].rank}`);
      await page.screenshot({ path: join(shots, 'clubsheets-players.png'), fullPage: true });
    });

    await step('a bad rank is refused in Russian', async () => {
      await page.fill('#ap-name', 'Лишний');
      await page.getByLabel('Разряд', { exact: true }).fill('2 дана');
      await page.click('#ap-submit');
      await page.waitForFunction(() => (document.querySelector('#event-error')?.textContent ?? '') !== '', null, {
        timeout: 10000,
      });
      const said = await textOf(page, '#event-error');
      check(said.startsWith('«2 дана» — не разряд'), `the refusal in Russian: ${said}`);
      await page.screenshot({ path: join(shots, 'clubsheets-bad-rank.png') });
      await page.fill('#ap-name', '');
      await page.getByLabel('Разряд', { exact: true }).fill('');
      check((await eventJson()).players.length === 12, 'nobody was added');
    });

    await step('round 1 paired and its results entered by the menus', async () => {
      await page.click('#tab-rounds');
      await page.click('#pair-round');
      await page.waitForFunction(() => document.querySelectorAll('.round[data-round="1"] .board-row').length === 6);
      const r1 = (await eventJson()).rounds[0];
      for (const b of r1.pairings) {
        const want = b.sente < b.gote ? 'sente' : 'gote';
        const row = `.board-row[data-round="1"][data-board="${b.board}"]`;
        await page.selectOption(`${row} select.result-select`, want);
        await page.waitForFunction(
          ([sel, w]) => document.querySelector(sel)?.getAttribute('data-result') === w,
          [row, want],
        );
      }
    });

    await step('rounds 2 to 11 paired and entered as the organiser', async () => {
      // The rest of the table by the API with the organiser's session (the
      // menus were shown above): the lower number wins, board 1 is drawn.
      await playRoundsByApi(page, id, 2, 11);
      check((await eventJson()).status === 'finished', 'every round played');
    });

    await step('the audit log in Russian words', async () => {
      await page.reload();
      await page.click('#audit-panel summary');
      await page.waitForSelector('#audit-log .audit-row');
      const log = await textOf(page, '#audit-log');
      check(log.includes(`Турнир «Первенство клуба ${stamp}» создан`), `the creation: ${log.slice(0, 200)}`);
      check(log.includes('Добавлен участник 1: Игрок 1'), 'a player added');
      check(log.includes('Тур 1 сведён (досок: 6)'), 'a round paired');
      check(log.includes('Тур 1, доска 1: Результат: '), 'a result');
      check(!/pair_round|add_player|result sente/.test(log), `no raw codes: ${log.slice(0, 300)}`);
      await page.screenshot({ path: join(shots, 'clubsheets-audit.png'), fullPage: true });
    });

    await step('the N×N table: 12 rows, the diagonal blacked out, every game in', async () => {
      await page.click('#tab-standings');
      await page.click('#link-grid');
      await page.waitForSelector('#rr-grid tbody tr');
      check((await textOf(page, '#rr-grid-section h2')).startsWith('Круговая таблица'), 'the heading in Russian');
      check((await page.locator('#rr-grid tbody tr').count()) === 12, '12 rows');
      check((await page.locator('#rr-grid thead th.grid-col').count()) === 12, '12 columns');
      check((await page.locator('#rr-grid td.self').count()) === 12, 'a blacked-out diagonal');
      const cells = await page.locator('#rr-grid td.grid-cell:not(.self)').allTextContents();
      check(cells.length === 132 && cells.every((c) => ['1', '0', '½'].includes(c)), `every game: ${cells.join(' ')}`);
      const first = await page.locator('#rr-grid tbody tr').first().textContent();
      check(first?.includes('Игрок 1 1 дан') ?? false, `the rank beside the name: ${first}`);
      await page.screenshot({ path: join(shots, 'clubsheets-grid.png'), fullPage: true });
    });

    await step('printed: the N×N table alone on one A4 landscape page', async () => {
      // The button marks the table to print and opens the print dialog;
      // headless Chromium would start a print job of its own, so the
      // dialog is replaced by a counter and the page printed to PDF below.
      await page.evaluate(() => {
        const w = window as unknown as { print: () => void; printCalls: number };
        w.printCalls = 0;
        w.print = () => {
          w.printCalls += 1;
        };
      });
      await page.getByRole('button', { name: 'Печать круговой таблицы' }).click();
      check(
        (await page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)) === 1,
        'the button opens the print dialog',
      );
      await page.emulateMedia({ media: 'print' });
      // A4 landscape at 96 px per inch.
      await page.setViewportSize({ width: 1123, height: 794 });
      check(!(await page.locator('#crosstable').isVisible()), 'the table by rounds is not printed');
      check(!(await page.locator('#print-grid').isVisible()), 'nor the buttons');
      for (let n = 1; n <= 12; n++) {
        check(await page.locator(`#rr-grid tr[data-player="${n}"]`).isVisible(), `row ${n} printed`);
      }
      await page.screenshot({ path: join(shots, 'clubsheets-grid-print.png') });
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      const text = pdf.toString('latin1');
      const pages = (text.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      check(pages === 1, `one page: ${pages}`);
      const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(text);
      check(box && Number(box[1]) > Number(box[2]), `landscape: ${box?.[0]}`);
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await step('the CSV for a Russian spreadsheet: BOM, semicolons, Russian headers', async () => {
      await page.goto(`${BASE}/t/${id}`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#link-csv')]);
      const bytes = readFileSync(await download.path());
      check(
        bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf,
        `the BOM first: ${bytes.subarray(0, 3).toString('hex')}`,
      );
      const head = bytes.toString('utf8').slice(1).split('\r\n')[0];
      check(head.startsWith('Место;№;Имя;Рейтинг;Разряд;Клуб;Тур 1;'), `Russian headers by semicolons: ${head}`);
    });
    await context.close();
  });
}
