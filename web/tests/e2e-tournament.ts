// Browser scenario of a tournament: a 12-player 5-round mixed Swiss played
// end to end in the browser, standings and the crosstable.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';

import { dragSquare } from './board';
import { BASE, api, type Json, waitState, test, check, newPage, shootNarrow, shots, textOf } from './e2e-harness';

export async function tournamentScenarios(browser: Browser): Promise<void> {
  await test('tournament: a 12-player 5-round mixed Swiss played end to end in the browser (two boards online in round 1), standings, crosstable', async () => {
    // Digits only: a name mixing Cyrillic with Latin letters is refused (UTS #39).
    const stamp = Date.now().toString().slice(-6);
    const password = 'correct horse battery';
    const open: { context: BrowserContext; page: Page }[] = [];
    /** Runs one named step; on failure every open page is screenshot and the step named. */
    const step = async (name: string, fn: () => Promise<void>) => {
      try {
        return await fn();
      } catch (e) {
        for (const [i, p] of open.entries()) {
          await p.page.screenshot({ path: join(shots, `tournament-failed-${i}.png`), fullPage: true }).catch(() => {});
        }
        throw new Error(`step "${name}" failed: ${e instanceof Error ? e.message : e}`);
      }
    };
    /** Waits for `pred` in the page; a timeout reports the event page's own error line, if any. */
    const waitEvent = async <A>(page: Page, pred: (arg: A) => boolean, arg: A, what: string, timeout = 15000) => {
      try {
        // playwright types a page function's argument by its serialisable types: ours are strings and numbers.
        await page.waitForFunction(pred as (arg: unknown) => boolean, arg as unknown, { timeout });
      } catch (e) {
        const said = await textOf(page, '#event-error', { timeout: 1000 }).catch(() => '');
        throw new Error(
          `${what}: ${said ? `the page says "${said}"` : String(e instanceof Error ? e.message : e).split('\n')[0]}`,
        );
      }
    };
    const register = async (page: Page, name: string) => {
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
        const said = await textOf(page, '#login-error', { timeout: 1000 }).catch(() => '');
        throw new Error(
          `registering ${name}: ${said || 'no account name shown'} (this test registers 5 accounts: a server with rate limits allows 5 an hour per address; run it with --no-rate-limits)`,
        );
      }
    };
    const eventJson = () => api(`/api/tournaments/${id}`);
    const roundsOf = (ev: Json): Json[] => ev.rounds;

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
      check(ev.time?.main_ms === 1800000 && ev.time?.byoyomi_ms === 30000, `30 min + 30 s: ${JSON.stringify(ev.time)}`);
      // `you` is the session's view: asked from the organiser's page, with its cookie.
      const mine = await org.page.evaluate((u) => fetch(u).then((r) => r.json()), `/api/tournaments/${id}`);
      check(mine.you?.organiser === true, `the creator organises: ${JSON.stringify(mine.you)}`);
      check((await textOf(org.page, '#event-facts')).includes('30 min + 30 s'), 'the header shows the time control');
    });

    await step('the organiser allows chat in the event settings, before round 1', async () => {
      await org.page.click('#settings-panel > summary');
      await org.page.waitForSelector('#settings-panel #te-chat');
      check(
        (await org.page.inputValue('#settings-panel #te-name')).startsWith('Кубок клуба'),
        'the settings form shows the event',
      );
      check(!(await org.page.isDisabled('#settings-panel #te-format')), 'the format can change before round 1');
      check(!(await org.page.isChecked('#settings-panel #te-chat')), 'chat is off as created');
      await org.page.check('#settings-panel #te-chat');
      await org.page.screenshot({ path: join(shots, 'tournament-settings.png'), fullPage: true });
      await org.page.click('#settings-panel #te-submit');
      await waitEvent(
        org.page,
        () => document.querySelector('#settings-panel #te-chat') === null,
        0,
        'the form closes',
      );
      const ev = await eventJson();
      check(ev.chat === true && ev.takebacks === false, `chat on, takebacks off: ${ev.chat} ${ev.takebacks}`);
    });

    // Four players register in their own browsers and join by the Join button.
    const accountNames = [`Алёна_${stamp}`, `Борис_${stamp}`, `Carl_${stamp}`, `Dana_${stamp}`];
    const accounts = new Map();
    for (const [i, name] of accountNames.entries()) {
      const p = await newPage(browser, i === 1 ? 'ru-RU' : 'en-US');
      open.push(p);
      accounts.set(name.toLowerCase(), p);
      // The last one enters by the organiser's invitation, accepted in the lobby (nobody enters another account).
      const invited = i === accountNames.length - 1;
      await step(
        `${name} registers and joins ${invited ? 'by accepting an invitation in the lobby' : 'by the Join button'}`,
        async () => {
          await register(p.page, name);
          if (invited) {
            await org.page.reload();
            await org.page.click('#tab-players');
            await org.page.fill('#ap-account', name);
            await org.page.click('#ap-submit');
            await waitEvent(
              org.page,
              (n) => document.querySelector(`#invitations-panel .pending-invitation[data-name="${n}"]`) !== null,
              name,
              `${name} listed as invited`,
            );
            check(
              (await textOf(org.page, '#invited-note')).includes(name),
              'the organiser is told the account is invited',
            );
            await p.page.goto(`${BASE}/`);
            const accept = p.page.locator('#invitations .invitation-accept');
            await accept.waitFor({ state: 'visible', timeout: 15000 });
            check(
              (await textOf(p.page, '#invitations .invitation-text')).includes(`Кубок клуба ${stamp}`),
              'the invitation names the event',
            );
            // Typed key by key, as a person does: the field must take a rank in words.
            await p.page.locator('#invitations .invitation-rank').pressSequentially('2 kyu');
            await p.page.screenshot({ path: join(shots, 'tournament-invitation.png'), fullPage: true });
            await accept.click();
            await p.page.locator('#invitations').waitFor({ state: 'detached', timeout: 15000 });
            const ev = await api(`/api/tournaments/${id}`);
            const entry = ev.players.find((x: Json) => x.account === name);
            check(
              entry && entry.rank === null,
              `${name} entered without a rank of their own: ${JSON.stringify(entry)}`,
            );
            check(entry.proposed_rank === '2k', `the proposed rank typed as "2 kyu": ${entry.proposed_rank}`);
          }
          await p.page.goto(`${BASE}/t/${id}`);
          await p.page.click('#tab-players');
          if (i === 1) check((await textOf(p.page, '#join-event')) === 'Записаться', 'the Join button in Russian');
          if (!invited) await p.page.click('#join-event');
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
        },
      );
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
      for (const [name, club, rating] of otb as [string, string, number][]) {
        await org.page.fill('#ap-name', name);
        await org.page.fill('#ap-rating', String(rating));
        await org.page.fill('#ap-club', club);
        await org.page.click('#ap-submit');
        await waitEvent(
          org.page,
          (n) =>
            [...document.querySelectorAll('#players-table .player-row .player-name')].some((e) => e.textContent === n),
          name,
          `${name} added`,
        );
      }
      const rows = await org.page.locator('#players-table .player-row').count();
      check(rows === 12, `12 players listed: ${rows}`);
      const ev = await eventJson();
      check(ev.players.length === 12, `12 players in the event: ${ev.players.length}`);
      const ivan = ev.players.find((p: Json) => p.name === 'Иванов Иван');
      check(
        ivan?.club === 'СПб' && ivan?.rating === 1850 && !ivan?.account,
        `an over-the-board player: ${JSON.stringify(ivan)}`,
      );
    });

    const players = (await eventJson()).players;
    const accountOf = (n: number) => players.find((p: Json) => p.player === n)?.account ?? null;
    const accountNumbers = players.filter((p: Json) => p.account).map((p: Json) => p.player);
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
        const online = round.pairings.filter((b: Json) => b.play === 'online' && b.game);
        check(
          online.length === 2 && online.every((b: Json) => accountOf(b.sente) && accountOf(b.gote)),
          `two boards between accounts online in round 1: ${JSON.stringify(round.pairings.map((b: Json) => [b.board, b.sente, b.gote, b.play]))}`,
        );
        check(
          ((await org.page.locator('.round[data-round="1"] .board-row .colours').first().textContent()) ?? '').length >
            0,
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
                if (p === sente && k === 0) await p.page.screenshot({ path: join(shots, 'tournament-game-ready.png') });
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
            loser.page.once('dialog', (d: Dialog) => d.accept());
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
              .pairings.find((x: Json) => x.board === b.board);
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
          round.pairings.every((b: Json) => b.result),
          `every result of round ${n} is in: ${JSON.stringify(round.pairings.map((b: Json) => b.result))}`,
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
          rank: Number(tr.querySelector('.rank')?.textContent),
          points: Number(tr.querySelector('.points')?.getAttribute('data-points')),
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
      // The CSV as a Russian organiser downloads it from the event's page: a byte-order mark, semicolons, Russian headers.
      await org.page.goto(`${BASE}/t/${id}`);
      await org.page.selectOption('#lang', 'ru');
      const [download] = await Promise.all([org.page.waitForEvent('download'), org.page.click('#link-csv')]);
      const bytes = readFileSync(await download.path());
      check(
        bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf,
        `the CSV begins with the BOM: ${bytes.subarray(0, 3).toString('hex')}`,
      );
      const head = bytes.toString('utf8').slice(1).split('\r\n')[0];
      check(head.startsWith('Место;№;Имя;Рейтинг;Разряд;Клуб;Тур 1;'), `the CSV's Russian header: ${head}`);
      await org.page.selectOption('#lang', 'en');
    });
    for (const p of open) await p.context.close();
  });
}
