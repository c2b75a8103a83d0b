// Browser scenarios of games played through the board: against the
// computer (moves, a reload, notations, stepping, a promotion choice, a
// drop), a friend joining by the invite link and a spectator, registered
// players in the lobby (a rated challenge, names by the clocks, profiles),
// and the impasse buttons.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { clickSquare, dragSquare } from './board';
import {
  BASE,
  sleep,
  fetchRetry,
  api,
  waitState,
  post,
  openWithToken,
  gameId,
  test,
  check,
  newPage,
  shootNarrow,
  createFromStartScreen,
  shots,
  textOf,
} from './e2e-harness';

export async function gameScenarios(browser: Browser): Promise<void> {
  await test('play the computer through the board: moves, reload, notations, stepping', async () => {
    const { context, page } = await newPage(browser);
    await createFromStartScreen(page, { mode: 'ai', level: '1', side: 'sente', time: '30+30' });
    const id = gameId(page);
    check((await textOf(page, '#seat')).includes('Sente'), 'seated as Sente');
    await page.waitForSelector('.player.bottom .conn.on');
    check((await page.locator('.player.top .conn').count()) === 0, 'no connection dot for the computer');
    check((await page.locator('.player.bottom .conn').count()) === 1, 'one connection dot for the player');
    // First move by clicks.
    await clickSquare(page, '7g', 'sente');
    await clickSquare(page, '7f', 'sente');
    let s = await waitState(id, (s) => s.moves.length >= 2, 'the computer to answer 7g7f');
    check(s.moves[0] === '7g7f', `first move 7g7f, got ${s.moves[0]}`);
    await page.waitForSelector('#moves .move[data-ply="2"]');
    const firstText = await textOf(page, '#moves .move[data-ply="1"]');
    check(firstText.includes('P-7f'), `western notation P-7f: ${firstText}`);
    await page.screenshot({ path: join(shots, 'ai-first-move.png') });
    // Reload mid-game: the seat is kept; the next move is made by dragging.
    await page.reload();
    await page.waitForSelector('.board sg-board piece');
    await page.waitForSelector('#moves .move[data-ply="2"]');
    check((await textOf(page, '#seat')).includes('Sente'), 'the seat survives a reload');
    s = await api(`/api/games/${id}`);
    const [from, tos] = Object.entries(s.dests).find(([f]) => f === '2g') ?? Object.entries(s.dests)[0];
    const to = tos[0];
    await dragSquare(page, from, to, 'sente');
    s = await waitState(id, (x) => x.moves.length >= 4, 'the move after the reload and the answer');
    check(s.moves[2].startsWith(from + to), `played ${from}${to} after the reload, got ${s.moves[2]}`);
    await page.waitForSelector('#moves .move[data-ply="4"]');
    // Step back through the moves with the keyboard and buttons.
    await page.keyboard.press('ArrowLeft');
    const current = await page.getAttribute('#moves .move.current', 'data-ply');
    check(current === '3', `ArrowLeft shows ply 3, got ${current}`);
    await page.click('#nav-first');
    check((await page.getAttribute('#moves .move.current', 'data-ply')) === '0', 'first shows the start');
    await page.waitForFunction(() => document.querySelectorAll('sg-pieces piece:not(.fading)').length === 40, null, {
      timeout: 5000,
    });
    const pawn7g = await page.evaluate(() => [...document.querySelectorAll('sg-pieces piece.sente.pawn')].length);
    check(pawn7g === 9, `the start position is shown (${pawn7g} pawns)`);
    await page.click('#nav-next');
    check((await page.getAttribute('#moves .move.current', 'data-ply')) === '1', 'next shows move 1');
    await page.click('#nav-last');
    check((await page.getAttribute('#moves .move.current', 'data-ply')) === '4', 'last shows the latest');
    await page.selectOption('#notation', 'japanese');
    const ja = await textOf(page, '#moves .move[data-ply="1"]');
    check(ja.includes('▲７六歩'), `Japanese notation: ${ja}`);
    await page.selectOption('#notation', 'russian');
    const ru = await textOf(page, '#moves .move[data-ply="1"]');
    check(ru.includes('7g-7f'), `Russian notation: ${ru}`);
    await page.selectOption('#piece-set', 'intl');
    await page.screenshot({ path: join(shots, 'ai-international.png') });
    await page.selectOption('#piece-set', 'kanji');
    await context.close();
  });

  await test('against the computer: a promotion choice and a drop from the hand', async () => {
    const { context, page } = await newPage(browser);
    // Sente's silver on 4d may promote on 4c; both sides have a pawn in hand.
    const g = await post('/api/games', {
      mode: 'ai',
      side: 'sente',
      sfen: '4k4/9/9/5S3/9/9/9/9/4K4 b Pp 1',
      ai: { level: 1 },
    });
    await openWithToken(page, g);
    const id = g.id;
    await dragSquare(page, '4d', '4c', 'sente');
    await page.waitForSelector('sg-promotion-choices piece', { timeout: 5000 });
    await page.screenshot({ path: join(shots, 'ai-promotion-choice.png') });
    await page.click('sg-promotion-choices piece.promotedsilver');
    let s = await waitState(id, (x) => x.moves.length >= 2, 'the promotion and the answer');
    check(s.moves[0] === '4d4c+', `promoted 4d4c+, got ${s.moves[0]}`);
    await page.waitForSelector('#moves .move[data-ply="2"]');
    // Drop the pawn from the hand by clicks.
    const to = s.drops.P.includes('5e') ? '5e' : s.drops.P[0];
    await page.click('.hand-bottom-el piece.sente.pawn');
    await clickSquare(page, to, 'sente');
    s = await waitState(id, (x) => x.moves.length >= 3, 'the drop');
    check(s.moves[2] === `P*${to}`, `dropped P*${to}, got ${s.moves[2]}`);
    await page.waitForSelector('#moves .move[data-ply="3"]');
    const text = await textOf(page, '#moves .move[data-ply="3"]');
    check(text.includes(`P*${to}`), `western drop text: ${text}`);
    await page.screenshot({ path: join(shots, 'ai-after-drop.png') });
    await context.close();
  });

  await test('a friend joins by the invite link; a spectator cannot move; Russian', async () => {
    const a = await newPage(browser);
    await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: '10+30' });
    const id = gameId(a.page);
    const link = await a.page.inputValue('#invite-link');
    check(link.includes(`/g/${id}?join=`), `invite link: ${link}`);
    await a.page.screenshot({ path: join(shots, 'friend-waiting.png') });

    const b = await newPage(browser);
    await b.page.goto(link);
    // A guest says their name first (optional), then takes the seat.
    await b.page.waitForSelector('#join-seat');
    await b.page.fill('#join-name', 'Friend');
    await b.page.click('#join-seat');
    await b.page.waitForSelector('.board sg-board piece');
    await b.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('Gote'));
    check(!b.page.url().includes('join='), 'the join code is dropped from the address');
    const s0 = await waitState(id, (s) => s.seats.gote, 'the friend to take the seat');
    check(
      s0.players?.gote?.name === 'Friend' && s0.players.gote.guest === true,
      `the guest's name: ${JSON.stringify(s0.players)}`,
    );
    await a.page.waitForFunction(() => document.querySelector('.player.top .name')?.textContent?.includes('Friend'));
    await a.page.waitForSelector('#invite-link', { state: 'detached' });

    await dragSquare(a.page, '7g', '7f', 'sente');
    await waitState(id, (s) => s.moves.length === 1, "Sente's move");
    await b.page.waitForSelector('#moves .move[data-ply="1"]');
    await clickSquare(b.page, '3c', 'gote');
    await clickSquare(b.page, '3d', 'gote');
    let s = await waitState(id, (s) => s.moves.length === 2, "Gote's move");
    check(s.moves[1] === '3c3d', `gote played 3c3d, got ${s.moves[1]}`);
    await a.page.waitForSelector('#moves .move[data-ply="2"]');
    await b.page.screenshot({ path: join(shots, 'friend-gote-view.png') });

    const c = await newPage(browser, 'ru-RU');
    await c.page.goto(`${BASE}/g/${id}`);
    await c.page.waitForSelector('.board sg-board piece');
    await c.page.waitForSelector('#moves .move[data-ply="2"]');
    const seat = await textOf(c.page, '#seat');
    check(seat.includes('наблюдаете'), `spectator text in Russian (from the browser language): ${seat}`);
    // Try to move: nothing is selectable and nothing is sent.
    await clickSquare(c.page, '2g', 'sente');
    check((await c.page.locator('sq.dest').count()) === 0, 'no destinations for a spectator');
    await dragSquare(c.page, '2g', '2f', 'sente');
    await sleep(500);
    s = await api(`/api/games/${id}`);
    check(s.moves.length === 2, 'the spectator moved nothing');
    // Language switch.
    await c.page.selectOption('#lang', 'en');
    check((await textOf(c.page, '#seat')).includes('watching'), 'switched to English');
    await c.page.selectOption('#lang', 'ru');
    const status = await textOf(c.page, '#status');
    check(status.includes('Сэнтэ ходит'), `Russian status: ${status}`);
    await c.page.screenshot({ path: join(shots, 'spectator-russian.png') });

    // Gote takes back 3c3d with Sente's consent; the screen reader hears where the game now stands.
    await b.page.click('#takeback');
    await a.page.click('#accept-takeback');
    await waitState(id, (s) => s.moves.length === 1, 'the takeback');
    for (const p of [a, b]) {
      await p.page.waitForFunction(() => document.querySelector('#live')?.textContent?.startsWith('Taken back.'));
      const said = await textOf(p.page, '#live');
      check(said.includes('Move 1') && !said.includes('3d'), `the screen reader after the takeback: ${said}`);
    }

    // Sente resigns; everybody sees the result.
    a.page.once('dialog', (d) => d.accept());
    await a.page.click('#resign');
    s = await waitState(id, (s) => s.status.over, 'the resignation');
    check(s.status.winner === 'gote' && s.status.reason === 'resign', 'gote wins by resignation');
    await c.page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('сдача'));
    await b.page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('resignation'));
    await c.page.screenshot({ path: join(shots, 'spectator-result.png') });
    for (const p of [a, b, c]) await p.context.close();
  });

  await test('players: register, a rated challenge accepted live in the lobby, names by the clocks, a spectator from the live list, resign, profiles, KIF names', async () => {
    // Digits only: a name mixing Cyrillic with Latin letters is refused (UTS #39).
    const stamp = Date.now().toString().slice(-6);
    const nameA = `Анна_${stamp}`;
    const nameB = `Bob-${stamp}`;
    const password = 'correct horse battery';
    const a = await newPage(browser);
    const b = await newPage(browser);
    const c = await newPage(browser);
    const register = async (page: Page, name: string) => {
      await page.goto(`${BASE}/`);
      await page.click('#register-open');
      await page.fill('#login-name', name);
      await page.fill('#login-password', password);
      await page.click('#login-submit');
      await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
    };
    await register(a.page, nameA);
    await register(b.page, nameB);
    // Both are on the start screen with the lobby open; A posts a rated 30 min + 30 s challenge.
    await a.page.waitForSelector('#seek-form');
    await b.page.waitForSelector('#lobby #seek-list-box');
    await a.page.selectOption('#seek-time', '30+30');
    await a.page.selectOption('#seek-rated', 'rated');
    await a.page.click('#seek-submit');
    await a.page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('shogi.seek.')));
    const seekId = await a.page.evaluate(() =>
      (Object.keys(localStorage).find((k) => k.startsWith('shogi.seek.')) ?? '').slice('shogi.seek.'.length),
    );
    await a.page.waitForSelector(`.seek-row[data-id="${seekId}"] .seek-cancel`);
    // B sees it arrive without a reload.
    const row = `.seek-row[data-id="${seekId}"]`;
    await b.page.waitForSelector(`${row} .seek-accept`, { timeout: 10000 });
    const rowText = await textOf(b.page, row);
    check(
      rowText.includes(nameA) && rowText.includes('30 min + 30 s') && rowText.includes('Rated'),
      `the seek row: ${rowText}`,
    );
    check(rowText.includes('1500?'), `a new account's provisional rating: ${rowText}`);
    await b.page.screenshot({ path: join(shots, 'lobby.png') });
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.screenshot({ path: join(shots, 'lobby-390.png'), fullPage: true });
    await b.page.setViewportSize({ width: 360, height: 800 });
    const lobbyWidth = await b.page.evaluate(() => document.documentElement.scrollWidth);
    check(lobbyWidth <= 360, `no horizontal scroll on the start screen at 360 px: ${lobbyWidth}`);
    await b.page.setViewportSize({ width: 1280, height: 900 });
    // B accepts; both land on the game.
    await b.page.click(`${row} .seek-accept`);
    await b.page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
    await a.page.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
    const id = gameId(b.page);
    check(gameId(a.page) === id, 'both players are in the same game');
    let s = await api(`/api/games/${id}`);
    check(s.rated === true, `a rated game: ${JSON.stringify(s.rated)}`);
    const senteName = s.players.sente.name;
    const goteName = s.players.gote.name;
    check(
      [senteName, goteName].sort().join() === [nameA, nameB].sort().join(),
      `the seats are named: ${JSON.stringify(s.players)}`,
    );
    const sente = senteName === nameA ? a : b;
    const gote = senteName === nameA ? b : a;
    for (const p of [a, b]) {
      await p.page.waitForSelector('.board sg-board piece');
      await p.page.waitForFunction(
        ([x, y]) => {
          const text = [...document.querySelectorAll('.player .name')].map((e) => e.textContent).join(' | ');
          return text.includes(x) && text.includes(y) && text.includes('1500?');
        },
        [nameA, nameB],
      );
    }
    check(
      (await textOf(gote.page, '.player.bottom .name')).includes(goteName),
      'Gote sees their own name at the bottom',
    );
    // One dot per player (the connection); the side to move is marked otherwise.
    await sente.page.waitForFunction(() => document.querySelectorAll('.player .conn.on').length === 2);
    check((await sente.page.locator('.player.bottom .conn').count()) === 1, 'one dot on the own row');
    check((await sente.page.locator('.player.top .conn').count()) === 1, "one dot on the opponent's row");
    const marker = await sente.page.evaluate(
      () => getComputedStyle(document.querySelector('.player.to-move .name') as Element, '::before').content,
    );
    check(!marker.includes('●'), `the side to move is not marked with a dot: ${marker}`);
    await sente.page.screenshot({ path: join(shots, 'players-game.png') });
    // A third browser finds the game in the live list and watches it.
    await c.page.goto(`${BASE}/`);
    await c.page.waitForSelector(`.live-row[data-id="${id}"]`, { timeout: 10000 });
    const liveText = await textOf(c.page, `.live-row[data-id="${id}"]`);
    check(liveText.includes(nameA) && liveText.includes(nameB), `the live row: ${liveText}`);
    await c.page.click(`.live-row[data-id="${id}"] a`);
    await c.page.waitForURL(new RegExp(`/g/${id}$`));
    await c.page.waitForSelector('.board sg-board piece');
    await c.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('watching'));
    // A few moves; the spectator sees them arrive.
    await dragSquare(sente.page, '7g', '7f', 'sente');
    await waitState(id, (x) => x.moves.length === 1, "Sente's first move");
    await c.page.waitForSelector('#moves .move[data-ply="1"]');
    await gote.page.waitForSelector('#moves .move[data-ply="1"]');
    await dragSquare(gote.page, '3c', '3d', 'gote');
    await waitState(id, (x) => x.moves.length === 2, "Gote's first move");
    await sente.page.waitForSelector('#moves .move[data-ply="2"]');
    await dragSquare(sente.page, '2g', '2f', 'sente');
    await waitState(id, (x) => x.moves.length === 3, "Sente's second move");
    await c.page.waitForSelector('#moves .move[data-ply="3"]');
    check((await c.page.locator('#chat').count()) === 0, 'a spectator has no chat');
    await c.page.setViewportSize({ width: 360, height: 800 });
    const gameWidth = await c.page.evaluate(() => document.documentElement.scrollWidth);
    check(gameWidth <= 360, `no horizontal scroll on the game screen at 360 px: ${gameWidth}`);
    // Both players read the end in Russian.
    for (const p of [sente, gote]) {
      await p.page.selectOption('#lang', 'ru');
      await p.page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('ходит'));
    }
    // Gote resigns.
    gote.page.once('dialog', (d) => d.accept());
    await gote.page.click('#resign');
    s = await waitState(id, (x) => x.status.over, 'the resignation');
    check(s.status.winner === 'sente' && s.status.reason === 'resign', JSON.stringify(s.status));
    // Both see both rating changes the moment it ends, by the names and under the status.
    const rc = s.rating_change;
    check(
      !!rc && rc.sente.before === 1500 && rc.sente.delta > 0 && rc.gote.delta === -rc.sente.delta,
      `the rating change: ${JSON.stringify(rc)}`,
    );
    const won = `${rc.sente.after} (+${rc.sente.delta})`;
    const lost = `${rc.gote.after} (\u2212${-rc.gote.delta})`;
    for (const [p, who] of [
      [sente, 'Sente'],
      [gote, 'Gote'],
    ] as const) {
      await p.page.waitForSelector('#rating-changes');
      const line = await textOf(p.page, '#rating-changes');
      check(line.startsWith('Рейтинг:') && line.includes(won) && line.includes(lost), `${who}'s rating line: ${line}`);
      const names = await p.page.locator('.player .name').allInnerTexts();
      const rows = names.join(' | ');
      check(
        rows.includes(`${senteName} ${won}`) && rows.includes(`${goteName} ${lost}`) && !rows.includes('1500?'),
        `${who}'s rows by the board: ${rows}`,
      );
      await p.page.screenshot({ path: join(shots, `rating-change-${who.toLowerCase()}.png`) });
      await p.page.selectOption('#lang', 'en');
    }
    // Both profiles list the game, with ratings moved off 1500.
    for (const [p, name, won] of [
      [sente, senteName, true],
      [gote, goteName, false],
    ]) {
      await p.page.goto(`${BASE}/@/${encodeURIComponent(name)}`);
      await p.page.waitForSelector('#profile');
      await p.page.waitForSelector(`#profile-games .archive-row[data-id="${id}"]`);
      const rating = Number.parseInt(await textOf(p.page, '.rating-row[data-class="classical"] .rating'), 10);
      check(
        won ? rating > 1500 : rating < 1500,
        `${name}'s classical rating after ${won ? 'winning' : 'losing'}: ${rating}`,
      );
      check(
        (await p.page.locator('.rating-history[data-class="classical"] svg circle').count()) >= 1,
        'the rating history chart has the game',
      );
      check(
        (await textOf(p.page, '#profile-results')).includes(won ? 'Wins: 1' : 'Losses: 1'),
        'the result is counted',
      );
      check((await p.page.locator('#account-settings').count()) === 1, "account settings on one's own profile");
      // The repertoire: the start position as Sente (7g7f, then 2g2f after
      // 3c3d) or the position after 7g7f as Gote (3c3d), with the result.
      const table = won ? '#repertoire-sente' : '#repertoire-gote';
      const first = won ? '7g7f' : '3c3d';
      const moveSelector = `${table} .repertoire-move[data-usi="${first}"]`;
      const move = p.page.locator(moveSelector);
      await move.waitFor({ state: 'visible' });
      const line = await textOf(p.page, moveSelector);
      check(line.includes(`1 · ${won ? '+1 −0 =0' : '+0 −1 =0'}`), `${name}'s repertoire line: ${line}`);
      if (won) {
        const later = await textOf(p.page, `${table} .repertoire-move[data-usi="2g2f"]`);
        check(later.includes('+1 −0 =0'), `the second position's move: ${later}`);
      }
      await move.locator('a').click();
      await p.page.waitForURL(/\/analysis\?/);
      await p.page.waitForSelector('.board sg-board piece');
      await p.page.screenshot({ path: join(shots, `repertoire-${won ? 'sente' : 'gote'}-opened.png`) });
      await p.page.goBack();
      await p.page.waitForSelector('#repertoire h2');
    }
    await sente.page.screenshot({ path: join(shots, 'profile.png'), fullPage: true });
    await sente.page.setViewportSize({ width: 390, height: 844 });
    await sente.page.screenshot({ path: join(shots, 'profile-390.png'), fullPage: true });
    await sente.page.setViewportSize({ width: 360, height: 800 });
    const profileWidth = await sente.page.evaluate(() => document.documentElement.scrollWidth);
    check(profileWidth <= 360, `no horizontal scroll on the profile at 360 px: ${profileWidth}`);
    // An unknown player: the not-found screen.
    await c.page.goto(`${BASE}/@/nobody-${stamp}`);
    await c.page.waitForSelector('#not-found');
    // The KIF names both players.
    const kif = await (await fetchRetry(`${BASE}/api/games/${id}/record?format=kif`)).text();
    const lines = kif.split(/\r?\n/);
    check(
      lines.some((l) => l.startsWith('先手：') && l.includes(senteName)),
      `先手 line names ${senteName}:\n${kif}`,
    );
    check(
      lines.some((l) => l.startsWith('後手：') && l.includes(goteName)),
      `後手 line names ${goteName}:\n${kif}`,
    );
    for (const p of [a, b, c]) await p.context.close();
  });

  await test('impasse: the count (count24) and the declaration (27) through the buttons', async () => {
    const { context, page } = await newPage(browser);
    // Both kings entered, each side owning 27 points: the accepted count is a draw.
    let g = await post('/api/games', {
      mode: 'local',
      sfen: '9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1',
      rules: { impasse: 'count24' },
    });
    await openWithToken(page, g);
    const points = await textOf(page, '#impasse');
    check(points.includes('27') && points.includes('Count 24'), `count24 points shown: ${points}`);
    await page.click('#propose-count');
    await page.waitForSelector('#accept-count');
    await page.click('#accept-count');
    let s = await waitState(g.id, (s) => s.status.over, 'the count');
    check(
      s.status.reason === 'impasse' && s.status.winner === null,
      `a draw by the count: ${JSON.stringify(s.status)}`,
    );
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('Draw'));
    await page.screenshot({ path: join(shots, 'impasse-count.png') });
    // Sente's king in the camp with 10 pieces there and 28 points: the declaration wins.
    g = await post('/api/games', {
      mode: 'local',
      sfen: '+P+P7/4K4/+P+PSS1GGBR/9/9/9/9/9/4k4 b RB 1',
      rules: { impasse: '27' },
    });
    await openWithToken(page, g);
    check(
      (await page.getAttribute('#declare', 'class'))?.includes('primary'),
      'the declaration is highlighted when it wins',
    );
    page.once('dialog', (d) => d.accept());
    await page.click('#declare');
    s = await waitState(g.id, (s) => s.status.over, 'the declaration');
    check(
      s.status.reason === 'impasse' && s.status.winner === 'sente',
      `sente wins by declaration: ${JSON.stringify(s.status)}`,
    );
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('Sente wins'));
    await page.screenshot({ path: join(shots, 'impasse-declaration.png') });
    await context.close();
  });

  await test('impasse: no declaration or count button before it is possible, the conditions explained', async () => {
    const { context, page } = await newPage(browser);
    let g = await post('/api/games', { mode: 'local', rules: { impasse: '27' } });
    await openWithToken(page, g);
    await page.waitForSelector('#impasse-conditions');
    check((await page.locator('#declare').count()) === 0, 'no declaration button at the start of a 27-point game');
    const cond = await textOf(page, '#impasse-conditions');
    check(
      cond.includes('10 other pieces') && cond.includes('28 points') && cond.includes('not in check'),
      `the 27-point conditions: ${cond}`,
    );
    await shootNarrow(page, 'impasse-conditions', 'the game screen');
    g = await post('/api/games', { mode: 'local', rules: { impasse: '24' } });
    await openWithToken(page, g);
    await page.waitForSelector('#impasse-conditions');
    check((await page.locator('#declare').count()) === 0, 'no declaration button at the start of a 24-point game');
    const cond24 = await textOf(page, '#impasse-conditions');
    check(cond24.includes('31+') && cond24.includes('24–30'), `the 24-point conditions: ${cond24}`);
    g = await post('/api/games', { mode: 'local', rules: { impasse: 'count24' } });
    await openWithToken(page, g);
    await page.waitForSelector('#impasse-conditions');
    check((await page.locator('#propose-count').count()) === 0, 'no count proposal before both kings entered');
    check((await textOf(page, '#impasse-conditions')).includes('both kings'), 'the count condition');
    await context.close();
  });
}
