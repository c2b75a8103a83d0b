// Browser scenario of the opening explorer (issue 47), in Russian: an
// organiser creates a collection and uploads a ZIP of real records (and one
// file that does not read), watching the progress bar to its end, the counts
// and the unreadable file's line; then a player opens the analysis board,
// sees the explorer's moves for the start position with the counts the
// records' main lines give (read here from the .usi files beside them),
// narrows them to one month's games and back, plays three moves by
// clicking them in the explorer's table, and opens a
// game from the explorer's list in the review. Called by e2e.ts's main().

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import {
  BASE,
  check,
  checkJapaneseDrawn,
  holdBack,
  newPage,
  register,
  retry,
  shootNarrow,
  shots,
  test,
  textOf,
} from './e2e-harness';

const RECORDS = '/work/shared/data/records';
/** Real records from the start position (their main lines are in `<file>.usi`). */
const FILES = [
  'sp_08731.kif',
  'sp_15732.kif',
  'sp_16217.kif',
  'sp_27479.kif',
  'sp_27481.kif',
  'sp_27482.kif',
  'bioshogi_sample_womens_ouza_2017.csa',
  'shogiextend_alpha_zero_vs_elmo_12.csa',
];
/** A record whose fourth line is no move. */
const BROKEN = [
  '手合割：平手',
  '手数----指手---------消費時間--',
  '   1 ７六歩(77)',
  '   2 これは指し手ではない',
  '',
].join('\n');

// ---------- a ZIP archive, stored (no compression) ----------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A ZIP archive holding `files` (name → bytes) uncompressed. */
function zip(files: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const n = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += local.length + n.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

// ---------- what the records say, independently of the server ----------

/** The main lines of the records, from their `.usi` files (`position startpos moves ...`). */
function mainLines(): string[][] {
  return FILES.map((f) => {
    const text = readFileSync(join(RECORDS, `${f}.usi`), 'utf8').trim();
    const m = /^position startpos moves (.*)$/.exec(text);
    if (!m) throw new Error(`${f}.usi is not a main line from the start position: ${text.slice(0, 60)}`);
    return m[1].trim().split(/\s+/);
  });
}

/** The month (`YYYY-MM`) each record says its game was played in (開始日時, `$START_TIME`), or null. */
function months(): (string | null)[] {
  return FILES.map((f) => {
    const text = readFileSync(join(RECORDS, f), 'utf8');
    const m = /(?:開始日時：|\$START_TIME:)(\d{4})\/(\d{2})/.exec(text);
    return m ? `${m[1]}-${m[2]}` : null;
  });
}

/** The games through the line `prefix`, and how many played each next move, most played first. */
function countsAfter(lines: string[][], prefix: string[]): { games: number; next: [string, number][] } {
  const through = lines.filter((l) => l.length >= prefix.length && prefix.every((m, i) => l[i] === m));
  const next = new Map<string, number>();
  for (const l of through)
    if (l.length > prefix.length) next.set(l[prefix.length], (next.get(l[prefix.length]) ?? 0) + 1);
  return { games: through.length, next: [...next].sort((a, b) => b[1] - a[1]) };
}

/** The explorer's rows as the page shows them: the move's text and its count of games. */
async function explorerRows(page: Page): Promise<{ move: string; games: string }[]> {
  const rows = page.locator('#explorer-moves tbody tr');
  const out: { move: string; games: string }[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator('td');
    out.push({
      move: ((await cells.nth(0).textContent()) ?? '').trim(),
      games: ((await cells.nth(1).textContent()) ?? '').trim(),
    });
  }
  return out;
}

/** Waits until the explorer says `games` games reach the shown position. */
async function waitTotal(page: Page, games: number): Promise<void> {
  await retry(async () => {
    const total = await textOf(page, '#explorer-total', { timeout: 2000 });
    check(total === `Партий с этой позицией: ${games}`, `the explorer's total: ${total}, expected ${games}`);
    const state = await page.getAttribute('#explorer-body', 'data-state');
    check(state !== 'loading', 'the explorer has its answer');
  }, 10000);
}

export async function explorerScenarios(browser: Browser): Promise<void> {
  await test('explorer (Russian): a ZIP uploaded into a collection, its moves on the analysis board, a game opened', async () => {
    const stamp = Date.now().toString().slice(-6);
    const collection = `клуб_${stamp}`;
    const lines = mainLines();

    // The organiser: registers, creates a collection and uploads the records.
    const org = await newPage(browser, 'ru-RU');
    const page = org.page;
    await register(page, `Организатор_${stamp}`);
    // The page draws itself again when its lists arrive; here the strategy
    // names arrive only once the name is typed, and what was typed stays
    // (it was lost, and "create" then did nothing, when they came late).
    const releaseStrategies = await holdBack(page, '**/api/strategies');
    await page.click('#link-collections');
    await page.waitForSelector('#collection-new');
    check((await textOf(page, '#collections h1')) === 'Коллекции', 'the page is in Russian');
    await page.fill('#collection-name', collection);
    await releaseStrategies();
    await page.waitForSelector('#search-strategy optgroup option', { state: 'attached' });
    check((await page.inputValue('#collection-name')) === collection, 'the typed name outlives the page drawn again');
    await page.click('#collection-create');
    await page.waitForSelector('#collection-message');
    check((await textOf(page, '#collection-message')).includes(collection), 'the collection is created');
    await page.waitForSelector(`.collection-row[data-name="${collection}"]`);
    const files: [string, Buffer][] = FILES.map((f) => [f, readFileSync(join(RECORDS, f))]);
    files.push(['сломанный.kif', Buffer.from(BROKEN, 'utf8')]);
    // The file is chosen as a person chooses it: the page's own button (in
    // Russian, not the browser's "Choose File") opens the file dialog, and
    // the page then names the chosen file.
    // Awaited from before the click (see e2e-review: Playwright intercepts
    // file dialogs only once its browser has been told to).
    const dialog = page.waitForEvent('filechooser');
    check((await textOf(page, '.file-picker .file-name')) === 'Файл не выбран', 'no file chosen yet, in Russian');
    await page.getByText('Выбрать файл…', { exact: true }).click();
    await (await dialog).setFiles({ name: 'партии.zip', mimeType: 'application/zip', buffer: zip(files) });
    check((await textOf(page, '.file-picker .file-name')) === 'партии.zip', 'the chosen file is named');
    check((await page.inputValue('#upload-collection')) === collection, 'the upload goes into the new collection');
    await page.click('#upload-start');
    await page.waitForSelector('#upload-progress');
    await page.waitForFunction(
      () => document.querySelector('#upload-status')?.textContent?.startsWith('Готово') ?? false,
      undefined,
      { timeout: 20000 },
    );
    const total = FILES.length + 1;
    check(
      (await textOf(page, '.file-picker .file-name')) === 'партии.zip',
      'the form drawn again with the progress still names the chosen file',
    );
    const status = await textOf(page, '#upload-status');
    check(status === `Готово: прочитано файлов ${total} из ${total}`, `the end of the import: ${status}`);
    const bar = await page.evaluate(() => {
      const p = document.querySelector('#upload-progress') as HTMLProgressElement | null;
      return p ? { value: p.value, max: p.max } : null;
    });
    check(bar && bar.value === bar.max && bar.max === total, `the bar is full: ${JSON.stringify(bar)}`);
    const added = await textOf(page, '#upload-added');
    check(added === `Добавлено партий: ${FILES.length}`, `the games added: ${added}`);
    const duplicates = await textOf(page, '#upload-duplicates');
    check(duplicates === 'Пропущено повторов: 0', `no duplicates: ${duplicates}`);
    const unreadable = await page.locator('#upload-unreadable li').allTextContents();
    check(unreadable.length === 1, `one unreadable file: ${unreadable.join(' | ')}`);
    check(
      /^сломанный\.kif: строка 4, столбец \d+ — ход не читается «.+»$/.test(unreadable[0]),
      `the unreadable file's line: ${unreadable[0]}`,
    );
    await retry(async () => {
      const row = await textOf(page, `.collection-row[data-name="${collection}"] td:last-child`, { timeout: 1000 });
      check(row === String(FILES.length), `the collection's count of games: ${row}`);
    }, 5000);
    await checkJapaneseDrawn(page, 'the unreadable record’s move');
    await shootNarrow(page, 'explorer-collections-russian', 'the collections page');

    // A player (another browser, not logged in): the analysis board's explorer.
    const player = await newPage(browser, 'ru-RU');
    const p = player.page;
    await p.goto(`${BASE}/`);
    // The panel draws its head again when the collections arrive: held
    // back here until the reader has opened the filters and begun a year,
    // both of which the new drawing keeps.
    const releaseCollections = await holdBack(p, '**/api/collections');
    await p.click('#link-analysis');
    await p.waitForSelector('#explorer');
    await p.click('.explorer-filters summary');
    await p.fill('#explorer-since-year', '17');
    await releaseCollections();
    await p.waitForSelector(`#explorer-collection option[value="${collection}"]`, { state: 'attached' });
    check(await p.isVisible('#explorer-since-year'), 'the filters stay open when the collections arrive');
    check((await p.inputValue('#explorer-since-year')) === '17', 'the year begun stays when the collections arrive');
    await p.fill('#explorer-since-year', '');
    await p.click('.explorer-filters summary');
    await p.selectOption('#explorer-collection', collection);
    const played: string[] = [];
    let expected = countsAfter(lines, played);
    await waitTotal(p, expected.games);
    let rows = await explorerRows(p);
    check(
      rows.map((r) => r.games).join(',') === expected.next.map(([, n]) => String(n)).join(','),
      `the start position's moves: ${JSON.stringify(rows)}, expected ${JSON.stringify(expected.next)}`,
    );
    check(!/^\d[a-i]\d[a-i]$/.test(rows[0].move), `moves in the site's notation, not USI: ${rows[0].move}`);
    await p.waitForSelector('#explorer-games .explorer-game-link');
    await checkJapaneseDrawn(p, 'the players’ names in the explorer’s games');
    await shootNarrow(p, 'explorer-analysis-start-russian', 'the analysis board with the explorer');

    // The period: the games of one month only (the month each record's header gives).
    const month = '1709-11';
    const inMonth = lines.filter((_, i) => months()[i] === month);
    check(inMonth.length >= 2 && inMonth.length < lines.length, `records of ${month}: ${inMonth.length}`);
    await p.click('.explorer-filters summary');
    // As a person does: the month by its Russian name, the year typed.
    const [year, mm] = month.split('-');
    const name = new Intl.DateTimeFormat('ru-RU', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2000, Number(mm) - 1, 1)),
    );
    for (const end of ['since', 'until']) {
      await p.selectOption(`#explorer-${end}-month`, { label: name });
      await p.fill(`#explorer-${end}-year`, year);
      await p.press(`#explorer-${end}-year`, 'Tab');
    }
    const monthly = countsAfter(inMonth, []);
    await waitTotal(p, monthly.games);
    rows = await explorerRows(p);
    check(
      rows.map((r) => r.games).join(',') === monthly.next.map(([, n]) => String(n)).join(','),
      `the moves of ${month}: ${JSON.stringify(rows)}, expected ${JSON.stringify(monthly.next)}`,
    );
    await shootNarrow(p, 'explorer-month-russian', 'the explorer with its period open');
    for (const end of ['since', 'until']) {
      await p.fill(`#explorer-${end}-year`, '');
      await p.press(`#explorer-${end}-year`, 'Tab');
    }
    await waitTotal(p, expected.games);
    rows = await explorerRows(p);

    // Three moves played by clicking the most played one's text in the table.
    for (let i = 0; i < 3; i++) {
      const before = await p.inputValue('#analysis-sfen');
      const top = expected.next[0];
      const text = rows[0].move;
      await p.locator('#explorer-moves tbody tr').first().getByText(text, { exact: true }).click();
      await p.waitForSelector(`#moves .move.current[data-ply="${i + 1}"]`);
      const after = await p.inputValue('#analysis-sfen');
      check(after !== before, `the board changed after ${text}`);
      const listed = (await textOf(p, `#moves .move[data-ply="${i + 1}"]`)).trim();
      check(listed.includes(text), `the move list shows ${text}: ${listed}`);
      played.push(top[0]);
      expected = countsAfter(lines, played);
      check(expected.games === top[1], `the records agree with themselves: ${expected.games} = ${top[1]}`);
      await waitTotal(p, expected.games);
      rows = await explorerRows(p);
      check(
        rows.map((r) => r.games).join(',') === expected.next.map(([, n]) => String(n)).join(','),
        `after ${played.join(' ')}: ${JSON.stringify(rows)}, expected ${JSON.stringify(expected.next)}`,
      );
    }
    await p.screenshot({ path: join(shots, 'explorer-analysis-3-moves-russian.png') });

    // A game from the list opens in the review.
    const games = p.locator('#explorer-games .explorer-game-link');
    check((await games.count()) === expected.games, `the games through the position: ${await games.count()}`);
    const first = ((await games.first().textContent()) ?? '').trim();
    const sente = /^☗ (.+?)(?: \(\d+\))? — ☖/.exec(first)?.[1] ?? '';
    check(sente !== '', `the game's players: ${first}`);
    await games.first().click();
    await p.waitForURL(/\/review\/[0-9a-f]{16}$/, { timeout: 10000 });
    await p.waitForSelector('.review-title');
    const title = await textOf(p, '.review-title');
    check(title.includes(sente), `the review shows the game: ${title} (${sente})`);
    await p.waitForSelector('#explorer-moves');
    await p.screenshot({ path: join(shots, 'explorer-review-russian.png') });
    await org.context.close();
    await player.context.close();
  });
}
