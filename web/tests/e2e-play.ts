// Browser scenarios of the rules and the details of play: the server's
// refusals in the UI language, an invite opened again, the clocks while the
// connection is cut, "illegal moves lose", a refused move explained at its
// square, keyboard play, byoyomi sounds, playing Gote, two players on one
// device.

import { join } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';

import { clickSquare, squareCenter } from './board';
import {
  BASE,
  sleep,
  api,
  waitState,
  gameId,
  test,
  check,
  newPage,
  shootNarrow,
  createFromStartScreen,
  shots,
  textOf,
} from './e2e-harness';

export async function playScenarios(browser: Browser): Promise<void> {
  await test("the server's refusals in the UI language: a broken record, a wrong login, a wrong invite (Russian, Ukrainian)", async () => {
    const ru = await newPage(browser, 'ru-RU');
    // An import the reader cannot read: the line, the column, the token and what is wrong, in Russian.
    await ru.page.goto(`${BASE}/import`);
    await ru.page.waitForSelector('#import-text');
    await ru.page.fill('#import-text', 'V2.2\nPI\n+\n+7776XX\n');
    await ru.page.click('#import-submit');
    await ru.page.waitForFunction(() => document.querySelector('#import-error')?.textContent !== '');
    const importError = await textOf(ru.page, '#import-error');
    check(importError === 'Строка 4, столбец 1: ход не читается «+7776XX»', `Russian import error: ${importError}`);
    await ru.page.fill('#import-text', 'hello world');
    await ru.page.click('#import-submit');
    // The field is emptied when the request is sent: wait for the new words.
    await ru.page.waitForFunction((before) => {
      const text = document.querySelector('#import-error')?.textContent ?? '';
      return text !== '' && text !== before;
    }, importError);
    const noRecord = await textOf(ru.page, '#import-error');
    check(
      noRecord.includes('в тексте нет записи партии') && !/[a-z]{4}/.test(noRecord.replace('hello world', '')),
      `Russian "no record": ${noRecord}`,
    );
    await shootNarrow(ru.page, 'server-error-import-russian', 'the import page with a Russian server error');
    // A wrong password: the login dialog says so in Russian.
    await ru.page.click('#login-open');
    await ru.page.fill('#login-name', 'nobody_here');
    await ru.page.fill('#login-password', 'not the password');
    await ru.page.click('#login-submit');
    await ru.page.waitForFunction(() => document.querySelector('#login-error')?.textContent !== '');
    const loginError = await textOf(ru.page, '#login-error');
    check(loginError === 'Неверное имя или пароль.', `Russian login error: ${loginError}`);
    await ru.page.screenshot({ path: join(shots, 'server-error-login-russian.png') });
    await ru.context.close();
    // An invite link with a wrong code: refused (403), said in Ukrainian.
    const a = await newPage(browser);
    await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: 'none' });
    const id = gameId(a.page);
    const uk = await newPage(browser, 'uk-UA');
    await uk.page.goto(`${BASE}/g/${id}?join=0123456789abcdef0123456789abcdef`);
    await uk.page.waitForSelector('#join-seat');
    await uk.page.click('#join-seat');
    await uk.page.waitForSelector('#message');
    const joinError = await textOf(uk.page, '#message');
    check(
      joinError.includes('Це посилання-запрошення не підходить до партії.'),
      `Ukrainian wrong invite: ${joinError}`,
    );
    await shootNarrow(uk.page, 'server-error-invite-ukrainian', 'the game screen of a wrong invite');
    for (const p of [a, uk]) await p.context.close();
  });

  await test('an invite link opened again: the seat is taken, said in the UI language', async () => {
    const a = await newPage(browser);
    await createFromStartScreen(a.page, { mode: 'friend', side: 'sente', time: 'none' });
    const id = gameId(a.page);
    const link = await a.page.inputValue('#invite-link');
    // Two browsers open the link while the seat is free; the first takes it.
    const b = await newPage(browser);
    const c = await newPage(browser, 'ru-RU');
    for (const p of [b, c]) {
      await p.page.goto(link);
      await p.page.waitForSelector('#join-seat');
    }
    await b.page.click('#join-seat');
    await b.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('Gote'));
    await waitState(id, (s) => s.seats.gote, 'the first visitor to take the seat');
    // The second is refused (409) and told so, in Russian.
    await c.page.click('#join-seat');
    await c.page.waitForSelector('.board sg-board piece');
    await c.page.waitForFunction(() => document.querySelector('#seat')?.textContent?.includes('место уже занято'));
    check((await c.page.locator('#message').count()) === 0, 'no error besides the seat line');
    await c.page.screenshot({ path: join(shots, 'invite-seat-taken-russian.png') });
    // A third opening of the link: no name asked, the same words (English).
    const d = await newPage(browser);
    await d.page.goto(link);
    await d.page.waitForSelector('.board sg-board piece');
    await d.page.waitForFunction(() =>
      document.querySelector('#seat')?.textContent?.includes('This seat has been taken'),
    );
    check((await d.page.locator('#join-seat').count()) === 0, 'no join screen for a taken seat');
    check(!d.page.url().includes('join='), 'the join code is dropped from the address');
    await shootNarrow(d.page, 'invite-seat-taken', 'the game screen of a refused invitee');
    for (const p of [c, d]) {
      const held = await p.page.evaluate((k) => localStorage.getItem(k), `shogi.token.${id}`);
      check(held === null, 'a refused visitor holds no seat token');
    }
    check((await textOf(b.page, '#seat')).includes('Gote'), 'the seat stays with the first visitor');
    for (const p of [a, b, c, d]) await p.context.close();
  });

  await test('the clocks stand still while the connection is lost and count again after it is back', async () => {
    const { context, page } = await newPage(browser);
    // The game's WebSocket goes through the test: passed to the server, or cut.
    let offline = false;
    const open: [WebSocketRoute, WebSocketRoute][] = [];
    await page.routeWebSocket(/\/api\/games\/[0-9a-f]+\/ws/, (ws) => {
      if (offline) {
        ws.close();
        return;
      }
      const server = ws.connectToServer();
      open.push([ws, server]);
    });
    await createFromStartScreen(page, { mode: 'local', time: '10+30' });
    const id = gameId(page);
    await clickSquare(page, '7g', 'sente');
    await clickSquare(page, '7f', 'sente');
    await waitState(id, (s) => s.moves.length === 1 && s.clocks?.running === 'gote', "Gote's clock to run");
    await page.waitForSelector('.clock.running[data-side="gote"]');
    // Cut the connection.
    offline = true;
    for (const [ws, server] of open.splice(0)) {
      await ws.close();
      await server.close();
    }
    await page.waitForSelector('.clock.paused[data-side="gote"]');
    check((await page.locator('.clock.running').count()) === 0, 'no clock shown running while disconnected');
    check((await page.locator('.clock.paused').count()) === 2, 'both clocks shown paused');
    check(
      (await textOf(page, '.clock[data-side="gote"] .extra')).includes('reconnecting'),
      'the clock says it is reconnecting',
    );
    const t1 = await textOf(page, '.clock[data-side="gote"] .main');
    await sleep(2200);
    const t2 = await textOf(page, '.clock[data-side="gote"] .main');
    check(t1 === t2, `the clock stands still while disconnected: ${t1} -> ${t2}`);
    await shootNarrow(page, 'clock-reconnecting', 'the game screen while reconnecting');
    // Back online: the next state brings the clock back, counting.
    offline = false;
    await page.waitForSelector('.clock.running[data-side="gote"]', { timeout: 30000 });
    check((await page.locator('.clock.paused').count()) === 0, 'no clock paused after reconnecting');
    const t3 = await textOf(page, '.clock[data-side="gote"] .main');
    await sleep(2200);
    const t4 = await textOf(page, '.clock[data-side="gote"] .main');
    check(t3 !== t4, `the clock counts again: ${t3} -> ${t4}`);
    await context.close();
  });

  await test('with "illegal moves lose" an illegal move can be made and loses', async () => {
    const { context, page } = await newPage(browser);
    await createFromStartScreen(page, { mode: 'local', time: 'none', illegal: 'lose' });
    const id = gameId(page);
    await clickSquare(page, '7g', 'sente');
    await clickSquare(page, '7e', 'sente');
    const s = await waitState(id, (s) => s.status.over, 'the illegal move to end the game');
    check(s.moves[0] === '7g7e', `the illegal move is recorded: ${s.moves}`);
    check(s.status.reason === 'illegal_move' && s.status.winner === 'gote', JSON.stringify(s.status));
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('illegal move'));
    await context.close();
  });

  // Sente ends up with a pawn in hand and a pawn on file 5: P*5e is nifu.
  const BEFORE_NIFU = ['7g7f', '3c3d', '7f7e', '3d3e', '7e7d', '3e3f', '7d7c+', '3f3g+'];
  /**
   * Types `moves` (USI) one by one into the move field, waiting for each to
   * be played: stored by the server and shown by the page, which reads the
   * next typed move against the position it has been sent.
   */
  const typeMoves = async (page: Page, id: string, moves: string[]) => {
    const before = (await api(`/api/games/${id}`)).moves.length;
    for (const [i, mv] of moves.entries()) {
      await page.fill('#move-input', mv);
      await page.press('#move-input', 'Enter');
      const ply = before + i + 1;
      await waitState(id, (s) => s.moves.length === ply, `typed move ${mv}`);
      await page.waitForSelector(`#moves .move[data-ply="${ply}"]`, { state: 'attached' });
    }
  };
  const dropPawnOn5e = async (page: Page) => {
    await page.click('.hand-bottom-el piece.sente.pawn');
    await clickSquare(page, '5e', 'sente');
  };

  await test('a refused move is explained at the square: nifu in English and Russian; when illegal moves lose, the ending names it', async () => {
    const { context, page } = await newPage(browser);
    await createFromStartScreen(page, { mode: 'local', time: 'none' });
    const id = gameId(page);
    await typeMoves(page, id, BEFORE_NIFU);
    await dropPawnOn5e(page);
    await page.waitForSelector('#rule-bubble');
    const bubble = await textOf(page, '#rule-bubble');
    check(bubble === 'Nifu: a second pawn on file 5', `the bubble in English: ${bubble}`);
    check((await page.getAttribute('#rule-bubble', 'data-square')) === '5e', 'the bubble is at 5e');
    check((await textOf(page, '#message')).includes('Nifu'), 'the message area says it too');
    // Over the square: the bubble's centre is above 5e's centre, on its file.
    const b = await page.locator('#rule-bubble').boundingBox();
    check(b, 'the bubble is drawn');
    const sq = await squareCenter(page, '5e', 'sente');
    check(
      Math.abs(b.x + b.width / 2 - sq.x) < 4 && b.y + b.height <= sq.y,
      `the bubble over 5e: ${JSON.stringify(b)} vs ${JSON.stringify(sq)}`,
    );
    await shootNarrow(page, 'refused-nifu', 'a game with a refused move');
    check((await api(`/api/games/${id}`)).moves.length === BEFORE_NIFU.length, 'the refused move was not played');
    await page.selectOption('#lang', 'ru');
    await dropPawnOn5e(page);
    await page.waitForFunction(
      () => document.querySelector('#rule-bubble')?.textContent === 'Нифу: вторая пешка на вертикали 5',
    );
    await page.screenshot({ path: join(shots, 'refused-nifu-russian.png') });
    await page.selectOption('#lang', 'en');

    await createFromStartScreen(page, { mode: 'local', time: 'none', illegal: 'lose' });
    const lost = gameId(page);
    await typeMoves(page, lost, BEFORE_NIFU);
    await dropPawnOn5e(page);
    const s = await waitState(lost, (x) => x.status.over, 'the nifu to lose');
    check(
      s.status.foul?.rule === 'nifu' && s.status.foul?.file === 5 && s.status.winner === 'gote',
      JSON.stringify(s.status),
    );
    await page.waitForFunction(() =>
      document.querySelector('#status')?.textContent?.includes('Gote wins (nifu on file 5)'),
    );
    await page.selectOption('#lang', 'ru');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('нифу на вертикали 5'));
    await shootNarrow(page, 'foul-nifu-russian', 'a game lost by nifu');
    await context.close();
  });

  await test('keyboard play: moves typed in USI and Western, an ambiguous move asks, the screen reader hears the moves and the position', async () => {
    const { context, page } = await newPage(browser);
    await createFromStartScreen(page, { mode: 'local', time: 'none' });
    const id = gameId(page);
    check((await page.getAttribute('.board', 'aria-label')) === 'Shogi board', 'the board has an accessible name');
    check((await textOf(page, 'label[for="move-input"]')) === 'Type a move', 'the field is labelled');
    await page.fill('#move-input', '7g7f');
    await page.press('#move-input', 'Enter');
    await waitState(id, (s) => s.moves.length === 1, 'the USI move');
    await page.fill('#move-input', 'P-34');
    await page.press('#move-input', 'Enter');
    let s = await waitState(id, (x) => x.moves.length === 2, 'the Western move');
    check(s.moves[1] === '3c3d', `P-34 is 3c3d: ${s.moves}`);
    await page.waitForFunction(() => document.querySelector('#live')?.textContent === 'Move 2: P-3d');
    check((await page.getAttribute('#live', 'aria-live')) === 'polite', 'the live region is polite');
    // Both golds reach 5h: the choices are offered.
    await page.fill('#move-input', 'G-5h');
    await page.press('#move-input', 'Enter');
    await page.waitForSelector('#type-note .choice');
    const choices = await page.$$eval('#type-note .choice', (els) => els.map((e) => e.textContent));
    check(choices.length === 2 && choices.includes('G4i-5h') && choices.includes('G6i-5h'), `choices: ${choices}`);
    await page.screenshot({ path: join(shots, 'keyboard-ambiguous.png') });
    await page.click('#type-note .choice[data-usi="4i5h"]');
    s = await waitState(id, (x) => x.moves.length === 3, 'the chosen move');
    check(s.moves[2] === '4i5h', `the chosen gold: ${s.moves}`);
    await page.waitForFunction(() => document.querySelector('#live')?.textContent === 'Move 3: G4i-5h');
    await page.fill('#move-input', 'K-1a');
    await page.press('#move-input', 'Enter');
    await page.waitForFunction(() =>
      document.querySelector('#type-note')?.textContent?.includes('No legal move reads "K-1a"'),
    );
    await page.click('#describe');
    const said = await textOf(page, '#live');
    check(
      said.includes('☗ Sente: king 5i;') && said.includes('gold 6i, 5h;') && said.includes('in hand: nothing.'),
      `the position in words: ${said}`,
    );
    await shootNarrow(page, 'keyboard-play', 'a game played from the keyboard');
    await context.close();
  });

  await test('byoyomi sounds: off by default, the switch is remembered across a reload', async () => {
    const { context, page } = await newPage(browser);
    await createFromStartScreen(page, { mode: 'local', time: '0+30' });
    await page.waitForSelector('#sound-toggle');
    check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'false', 'off by default');
    check((await page.getAttribute('#sound-toggle', 'aria-label')) === 'Byoyomi sounds off', 'named for what it does');
    await page.click('#sound-toggle');
    check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'true', 'turned on');
    await page.reload();
    await page.waitForSelector('#sound-toggle');
    check((await page.getAttribute('#sound-toggle', 'aria-pressed')) === 'true', 'still on after a reload');
    await shootNarrow(page, 'byoyomi-sound-on', 'a game with the sound switch');
    await page.click('#sound-toggle');
    check((await page.evaluate(() => localStorage.getItem('shogi.sound'))) === 'off', 'turned off and remembered');
    await context.close();
  });

  await test('playing Gote against the computer: the board is turned, the computer starts', async () => {
    const { context, page } = await newPage(browser, 'uk-UA');
    await createFromStartScreen(page, { mode: 'ai', side: 'gote', time: 'none', handicap: 'bishop' });
    const id = gameId(page);
    check((await page.locator('.board.orientation-gote').count()) === 1, 'seen from Gote');
    // Bishop handicap: the giver (Gote, us) moves first.
    let s = await api(`/api/games/${id}`);
    check(s.side_to_move === 'gote' && s.moves.length === 0, 'the handicap giver moves first');
    await clickSquare(page, '3c', 'gote');
    await clickSquare(page, '3d', 'gote');
    s = await waitState(id, (s) => s.moves.length >= 2, 'the computer to answer');
    check(s.moves[0] === '3c3d', `played 3c3d, got ${s.moves[0]}`);
    const seat = await textOf(page, '#seat');
    check(seat.includes('Ви граєте'), `Ukrainian: ${seat}`);
    await page.screenshot({ path: join(shots, 'ai-gote-ukrainian.png') });
    await context.close();
  });

  await test('two players on one device, with clocks counting down', async () => {
    const { context, page } = await newPage(browser, 'ja-JP');
    await createFromStartScreen(page, { mode: 'local', time: '0+30' });
    const id = gameId(page);
    await clickSquare(page, '7g', 'sente');
    await clickSquare(page, '7f', 'sente');
    await waitState(id, (s) => s.moves.length === 1, 'the first move');
    await clickSquare(page, '3c', 'sente');
    await clickSquare(page, '3d', 'sente');
    await waitState(id, (s) => s.moves.length === 2, 'the second move');
    const t1 = await textOf(page, '.player.bottom .clock .main');
    await sleep(2200);
    const t2 = await textOf(page, '.player.bottom .clock .main');
    check(t1 !== t2, `the running clock counts down: ${t1} -> ${t2}`);
    const status = await textOf(page, '#status');
    check(status.includes('先手'), `Japanese status: ${status}`);
    await page.screenshot({ path: join(shots, 'local-japanese.png') });
    await context.close();
  });
}
