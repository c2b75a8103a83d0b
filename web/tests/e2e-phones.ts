// Browser scenario of a phone (issue: "phones at 390 px"): every page at
// 390×844 in Russian and in Ukrainian, with a 12-player round robin played
// to the end (long Russian names), an open challenge and one's own game in
// progress. On each page: no sideways page scroll; every visible table shows
// each header cell and each row's last cell inside the screen, or scrolls
// inside a box that shows its visible "scroll" cue (and then keeps the names
// and the points in sight); no cell's text is cut. On the start page the open
// challenges and the games in progress come before the forms. A full-page
// screenshot per page and language, test-results/phone-<lang>-<page>.png, and
// its first screen, phone-<lang>-<page>-top.png.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import {
  BASE,
  api,
  check,
  fetchRetry,
  gameId,
  newPage,
  playRoundsByApi,
  register,
  setRole,
  shots,
  test,
  textOf,
} from './e2e-harness';

/** What a page breaks at 390 px, as the checks read it ('' when nothing). */
async function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const W = window.innerWidth;
    if (document.documentElement.scrollWidth > W) {
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
    }
    const shown = (el: Element) => (el as HTMLElement).checkVisibility?.() !== false;
    const inside = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.left >= -0.5 && r.right <= W + 0.5;
    };
    const label = (el: Element) => `"${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // Text ending in "…" because its box is too narrow.
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(el);
      if (style.textOverflow === 'ellipsis' && shown(el) && el.scrollWidth > el.clientWidth + 1) {
        out.push(`the text of ${label(el)} is cut with "…"`);
      }
    }
    for (const table of document.querySelectorAll('table')) {
      if (!shown(table) || table.getBoundingClientRect().width === 0) continue;
      const name = table.id ? `#${table.id}` : `table.${table.className.split(' ').join('.')}`;
      // A box scrolling the table sideways must show its cue, and keep the names and points in sight.
      const scroller = table.closest('.table-scroll') as HTMLElement | null;
      const scrolls = !!scroller && scroller.scrollWidth > scroller.clientWidth + 1;
      if (scrolls) {
        const cue = scroller?.parentElement?.querySelector(':scope > .scroll-cue');
        if (!cue || !shown(cue) || !inside(cue)) out.push(`${name} scrolls sideways with no visible cue`);
        for (const cell of table.querySelectorAll('tbody td.points, tbody .player-name')) {
          if (!inside(cell)) out.push(`${name}: ${label(cell)} is off the screen while the table scrolls`);
        }
      }
      const head = table.querySelector('thead');
      const stacked = !!head && getComputedStyle(head).display === 'none';
      for (const row of table.querySelectorAll('tr')) {
        if (!shown(row)) continue;
        const cells = [...row.children];
        // Every header cell, the last cell of each row; every filled cell of a table stacked into cards.
        const must = row.parentElement?.tagName === 'THEAD' ? cells : stacked ? cells : cells.slice(-1);
        if (!scrolls) {
          for (const c of must) {
            if (stacked && (c.textContent ?? '').trim() === '' && c.children.length === 0) continue;
            if (!inside(c)) out.push(`${name}: the cell ${label(c)} is hidden or off the screen`);
          }
        }
        // No text cut inside a cell (a cell scrolling or clipping its text), nor
        // squeezed into a strip a letter or two wide (words broken at every letter).
        for (const c of cells) {
          const el = c as HTMLElement;
          if (!shown(el)) continue;
          if (el.scrollWidth > el.clientWidth + 1) {
            out.push(`${name}: the text of ${label(c)} is cut (${el.scrollWidth} > ${el.clientWidth})`);
          }
          const longest = Math.max(0, ...(el.textContent ?? '').split(/\s+/).map((w) => w.length));
          const em = Number.parseFloat(getComputedStyle(el).fontSize);
          if (longest >= 4 && el.clientWidth > 0 && el.clientWidth < 2.2 * em) {
            out.push(`${name}: ${label(c)} is squeezed to ${el.clientWidth} px`);
          }
        }
      }
    }
    return out;
  });
}

export async function phoneScenarios(browser: Browser): Promise<void> {
  await test('phones: every page at 390×844 in Russian and Ukrainian, no hidden column, no sideways scroll', async () => {
    const stamp = Date.now().toString().slice(-6);
    // The viewer: an admin with a game in progress; the opponent; a third player with an open challenge.
    const viewerName = `Константин_${stamp}`;
    const viewer = await newPage(browser, 'ru-RU');
    const rival = await newPage(browser, 'ru-RU');
    const seeker = await newPage(browser, 'uk-UA');
    await register(viewer.page, viewerName);
    await register(rival.page, `Святослав_${stamp}`);
    await register(seeker.page, `Ярослава_${stamp}`);
    await setRole(viewerName, 'admin');

    // The viewer's own game: the rival's challenge accepted.
    await rival.page.goto(`${BASE}/`);
    await viewer.page.goto(`${BASE}/`);
    await rival.page.waitForSelector('#seek-form');
    await rival.page.selectOption('#seek-time', '30+30');
    await rival.page.click('#seek-submit');
    await rival.page.waitForSelector('.seek-row .seek-cancel');
    const first = await rival.page.getAttribute('.seek-row:has(.seek-cancel)', 'data-id');
    await viewer.page.click(`.seek-row[data-id="${first}"] .seek-accept`);
    await viewer.page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
    const game = gameId(viewer.page);
    // A finished game for the profile: the seeker's challenge accepted, then resigned.
    await seeker.page.goto(`${BASE}/`);
    await seeker.page.waitForSelector('#seek-form');
    await seeker.page.click('#seek-submit');
    await seeker.page.waitForSelector('.seek-row .seek-cancel');
    const second = await seeker.page.getAttribute('.seek-row:has(.seek-cancel)', 'data-id');
    const other = await viewer.context.newPage();
    await other.goto(`${BASE}/`);
    await other.click(`.seek-row[data-id="${second}"] .seek-accept`);
    await other.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
    other.once('dialog', (d) => d.accept());
    await other.click('#resign');
    await other.waitForSelector('#status');
    await other.close();
    // An open challenge, left open on the seeker's start page.
    await seeker.page.goto(`${BASE}/`);
    await seeker.page.waitForSelector('#seek-form');
    await seeker.page.click('#seek-submit');
    await seeker.page.waitForSelector('.seek-row .seek-cancel');

    // The round robin: 12 players with long names, every round played (the viewer organises it).
    const names = [
      'Константинопольская Александра Вячеславовна',
      'Иванов Иван',
      'Преображенский Филипп Филиппович',
      'Ли Ю',
      'Достоевский Фёдор Михайлович',
      'Шевченко Тарас',
      'Белоусова-Кропоткина Елизавета',
      'Ким Ен',
      'Красноперекопская Мария',
      'Пётр',
      'Гончаренко Оксана Владимировна',
      'Нестор Летописец',
    ];
    const inPage = (method: string, path: string, body: unknown) =>
      viewer.page.evaluate(
        async ([m, p, b]) => {
          const r = await fetch(p as string, {
            method: m as string,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(b),
          });
          return { status: r.status, body: await r.json().catch(() => null) };
        },
        [method, path, body] as const,
      );
    const created = await inPage('POST', '/api/tournaments', {
      name: `Открытое первенство Санкт-Петербурга по сёги ${stamp}`,
      place: 'Санкт-Петербург, Невский проспект',
      starts: '2026-12-25',
      ends: '2026-12-27',
      format: 'round_robin',
      time: { main_ms: 1800000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 },
      rated: false,
      play: 'otb',
      impasse: 'count24',
      tiebreaks: ['sb', 'direct', 'wins'],
      open: true,
      handicap: false,
    });
    check(created.status === 201 || created.status === 200, `the event created: ${JSON.stringify(created)}`);
    const id = created.body.id as string;
    for (const [i, name] of names.entries()) {
      const r = await inPage('POST', `/api/tournaments/${id}/players`, {
        name,
        rating: 2100 - 40 * i,
        rank: i % 2 ? `${i} кю` : `${1 + (i % 4)} дан`,
        club: i % 3 === 0 ? 'Сёги-клуб «Белые ночи»' : 'Москва',
      });
      check(r.status < 300, `player ${i + 1}: ${JSON.stringify(r)}`);
    }
    await playRoundsByApi(viewer.page, id, 1, 11);
    check((await api(`/api/tournaments/${id}`)).status === 'finished', 'every round played');

    // A record to review.
    const imported = await fetchRetry(`${BASE}/api/import?save=1`, {
      method: 'POST',
      body: 'V2.2\nN+Константинопольская\nN-Преображенский\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n',
    }).then((r) => r.json());

    const problems: string[] = [];
    for (const lang of ['ru', 'uk'] as const) {
      const { context, page } = await newPage(browser, lang === 'ru' ? 'ru-RU' : 'uk-UA');
      await page.setViewportSize({ width: 390, height: 844 });
      // The viewer's session in this language's browser.
      await context.addCookies(await viewer.context.cookies());
      /** Opens `path`, waits for `ready`, checks the page, and keeps its screenshot. */
      const visit = async (name: string, path: string | null, ready: string, then?: () => Promise<void>) => {
        if (path !== null) await page.goto(BASE + path);
        await page.waitForSelector(ready, { timeout: 15000 });
        if (then) await then();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(150);
        await page.screenshot({ path: join(shots, `phone-${lang}-${name}.png`), fullPage: true });
        await page.screenshot({ path: join(shots, `phone-${lang}-${name}-top.png`) });
        for (const p of await phoneProblems(page)) problems.push(`${lang} ${name}: ${p}`);
      };
      await visit('start', '/', '#seek-list .seek-row', async () => {
        await page.waitForSelector(`#live-list .live-row[data-id="${game}"]`);
        const order = await page.evaluate(() => {
          const top = (sel: string) => document.querySelector(sel)?.getBoundingClientRect().top ?? -1;
          return {
            seeks: top('#seek-list-box'),
            live: top('#live-list-box'),
            start: top('#start-form'),
            seek: top('#seek-form'),
          };
        });
        check(
          order.seeks >= 0 && order.seeks < order.start && order.seeks < order.seek,
          `${lang}: the open challenges above the forms: ${JSON.stringify(order)}`,
        );
        check(
          order.live >= 0 && order.live < order.start && order.live < order.seek,
          `${lang}: the games in progress above the forms: ${JSON.stringify(order)}`,
        );
        check(
          (await page.getAttribute(`#live-list .live-row[data-id="${game}"]`, 'class'))?.includes('own'),
          `${lang}: one's own game marked`,
        );
      });
      await visit('game', `/g/${game}`, '.board sg-board piece');
      await visit('review', `/review/${imported.id}`, '.board sg-pieces piece');
      await visit('analysis', '/analysis', '.board sg-pieces piece');
      await visit('archive', '/archive', '.archive');
      await visit('import', '/import', 'textarea');
      await visit('learn', '/learn', '.learn, #learn');
      await visit('lesson', '/learn/board', '.learn-side[data-ready="yes"]');
      await visit('puzzles', '/puzzles', '.board sg-pieces piece');
      await visit('profile', `/@/${encodeURIComponent(viewerName)}`, '#profile');
      await visit('tournaments', '/t', '#event-list');
      await visit('event-standings', `/t/${id}`, '#standings .standing-row');
      await page.click('#tab-rounds');
      await visit('event-rounds', null, '#event-rounds .board-row');
      await page.click('#tab-players');
      await visit('event-players', null, '#players-table .player-row');
      await visit('crosstable', `/t/${id}/crosstable`, '#crosstable .cross-row', async () => {
        await page.locator('#rr-grid-section').screenshot({ path: join(shots, `phone-${lang}-crosstable-grid.png`) });
      });
      await visit('pairing-sheet', `/t/${id}/rounds/11/sheet`, '#pairing-sheet .sheet-row');
      await page.goto(`${BASE}/admin`);
      await page.fill('#adm-q', 'Констант');
      await page.click('#adm-find-go');
      await visit('admin', null, '#adm-accounts table tr[data-name]');
      // The pairings as a player who does not organise: the result shown as text beside both names.
      if (lang === 'ru') {
        await context.clearCookies();
        await page.goto(`${BASE}/t/${id}`);
        await page.waitForSelector('#tab-rounds');
        await page.click('#tab-rounds');
        await visit('event-rounds-player', null, '#event-rounds .board-row .result-text', async () => {
          const text = await page.locator('#event-rounds .board-row').first().textContent();
          check(!!text && /1\s*[–-]\s*0|0\s*[–-]\s*1|½/.test(text), `the result shown: ${text}`);
        });
      }
      await context.close();
    }
    check(problems.length === 0, `at 390×844:\n  ${[...new Set(problems)].join('\n  ')}`);
    check((await textOf(seeker.page, '#seek-list')).length > 0, 'the challenge stayed open');
    for (const p of [viewer, rival, seeker]) await p.context.close();
  });
}
