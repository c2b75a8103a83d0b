// Moderation in Russian (issue 43): two players play a rated game through
// the lobby; while they play a second game and one of them has a challenge
// open, a moderator disables that player's account on /admin (their game
// socket closes, so the game page no longer offers them a move or a
// resignation; their challenge leaves the other player's lobby; logging in is
// refused in Russian), then annuls the first game's rating effect (both
// profiles lose the rating the game gave them). Every step clicks what a
// person sees and reads what they read; screenshots in test-results/.

import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

import { dragSquare } from './board';
import { BASE, check, gameId, newPage, setRole, shots, test, textOf, waitState } from './e2e-harness';

const PASSWORD = 'правильный пароль 42';

async function register(page: Page, name: string): Promise<void> {
  await page.goto(`${BASE}/`);
  await page.click('#register-open');
  await page.fill('#login-name', name);
  await page.fill('#login-password', PASSWORD);
  await page.click('#login-submit');
  await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
}

/** `seeker` posts a 30 min + 30 s challenge (rated or not) on the start page; `acceptor` accepts it; both land on the game. */
async function playThroughLobby(seeker: Page, acceptor: Page, rated: boolean): Promise<string> {
  await seeker.goto(`${BASE}/`);
  await acceptor.goto(`${BASE}/`);
  await seeker.waitForSelector('#seek-form');
  await seeker.selectOption('#seek-time', '30+30');
  await seeker.selectOption('#seek-rated', rated ? 'rated' : 'casual');
  await seeker.click('#seek-submit');
  await seeker.waitForSelector('.seek-row .seek-cancel');
  const row = await seeker.getAttribute('.seek-row:has(.seek-cancel)', 'data-id');
  await acceptor.waitForSelector(`.seek-row[data-id="${row}"] .seek-accept`, { timeout: 10000 });
  await acceptor.click(`.seek-row[data-id="${row}"] .seek-accept`);
  await acceptor.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
  await seeker.waitForURL(/\/g\/[0-9a-f]{16}$/, { timeout: 10000 });
  const id = gameId(acceptor);
  check(gameId(seeker) === id, 'both players are in the same game');
  for (const p of [seeker, acceptor]) await p.waitForSelector('.board sg-board piece');
  return id;
}

/** The classical rating a profile page shows, or null when it shows none. */
async function classicalRating(page: Page, name: string): Promise<number | null> {
  await page.goto(`${BASE}/@/${encodeURIComponent(name)}`);
  await page.waitForSelector('#profile');
  const row = page.locator('.rating-row[data-class="classical"] .rating');
  if ((await row.count()) === 0) return null;
  return Number.parseInt((await row.textContent()) ?? '', 10);
}

export async function moderationScenarios(browser: Browser): Promise<void> {
  await test('модерация: модератор отключает игрока посреди партии и аннулирует рейтинговую партию', async () => {
    const stamp = Date.now().toString().slice(-6);
    const nameA = `Анна_${stamp}`;
    const nameB = `Борис_${stamp}`;
    const nameM = `Модератор_${stamp}`;
    const a = await newPage(browser, 'ru-RU');
    const b = await newPage(browser, 'ru-RU');
    const m = await newPage(browser, 'ru-RU');
    await register(a.page, nameA);
    await register(b.page, nameB);
    await register(m.page, nameM);
    await setRole(nameM, 'moderator');

    // A rated game: Anna's challenge, Boris accepts, two moves, Boris resigns.
    const first = await playThroughLobby(a.page, b.page, true);
    const s = await waitState(first, (x) => x.rated === true, 'a rated game');
    const [sente, gote] = s.players?.sente?.name === nameA ? [a.page, b.page] : [b.page, a.page];
    await dragSquare(sente, '7g', '7f', 'sente');
    await waitState(first, (x) => x.moves.length === 1, "Sente's move");
    await dragSquare(gote, '3c', '3d', 'gote');
    await waitState(first, (x) => x.moves.length === 2, "Gote's move");
    b.page.once('dialog', (d) => d.accept());
    await b.page.click('#resign');
    await waitState(first, (x) => x.status.over, 'the resignation');
    const annaRated = await classicalRating(a.page, nameA);
    const borisRated = await classicalRating(b.page, nameB);
    check(annaRated !== null && annaRated > 1500, `Anna won rating: ${annaRated}`);
    check(borisRated !== null && borisRated < 1500, `Boris lost rating: ${borisRated}`);

    // A second game under way; Boris also has a challenge open in another tab,
    // which Anna sees in her lobby.
    const second = await playThroughLobby(b.page, a.page, false);
    const lobbyB = await b.context.newPage();
    await lobbyB.goto(`${BASE}/`);
    await lobbyB.waitForSelector('#seek-form');
    await lobbyB.selectOption('#seek-time', '30+30');
    await lobbyB.click('#seek-submit');
    await lobbyB.waitForSelector('.seek-row .seek-cancel');
    const seek = await lobbyB.getAttribute('.seek-row:has(.seek-cancel)', 'data-id');
    const lobbyA = await a.context.newPage();
    await lobbyA.goto(`${BASE}/`);
    await lobbyA.waitForSelector(`.seek-row[data-id="${seek}"]`, { timeout: 10000 });
    check((await textOf(lobbyA, `.seek-row[data-id="${seek}"]`)).includes(nameB), "Boris's challenge is listed");
    await b.page.waitForSelector('#resign');
    await b.page.screenshot({ path: join(shots, 'moderation-playing.png') });

    // The moderator's page, in Russian, from the account bar.
    await m.page.goto(`${BASE}/`);
    await m.page.waitForSelector('#link-admin');
    check((await textOf(m.page, '#link-admin')) === 'Модерация', 'the account bar links to the moderation page');
    await m.page.click('#link-admin');
    await m.page.waitForSelector('#admin');
    await m.page.fill('#adm-q', nameB.slice(0, 5));
    await m.page.click('#adm-find-go');
    const rowB = `#adm-accounts tr[data-name="${nameB}"]`;
    await m.page.waitForSelector(rowB);
    check((await textOf(m.page, rowB)).includes('активна'), 'the account is active');
    // No reason, no action.
    await m.page.click(`${rowB} .adm-disable`);
    await m.page.waitForFunction(
      () => document.querySelector('#adm-status')?.textContent === 'Сначала укажите причину.',
    );
    await m.page.fill(`${rowB} .adm-reason`, 'оскорбления в чате');
    await m.page.click(`${rowB} .adm-disable`);
    await m.page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('отключена'), rowB);
    await m.page.screenshot({ path: join(shots, 'moderation-disabled.png') });

    // Boris's game socket closed: his page no longer seats him (no resign button).
    await b.page.waitForSelector('#resign', { state: 'detached', timeout: 10000 });
    // His account bar no longer names him: the page learnt that his session ended.
    await b.page.waitForSelector('#account-name', { state: 'detached', timeout: 10000 });
    check(await b.page.isVisible('#login-open'), 'the account bar offers to log in');
    await b.page.screenshot({ path: join(shots, 'moderation-player-after.png') });
    // His challenge left Anna's lobby.
    await lobbyA.waitForSelector(`.seek-row[data-id="${seek}"]`, { state: 'detached', timeout: 10000 });
    // The game stays.
    const game = await waitState(
      second,
      (x) => x.players?.sente?.name === nameB || x.players?.gote?.name === nameB,
      'the game',
    );
    check(!game.status.over, 'the second game is still there');
    // He cannot log in again: the refusal is in Russian.
    await lobbyB.goto(`${BASE}/`);
    await lobbyB.waitForSelector('#login-open');
    await lobbyB.click('#login-open');
    await lobbyB.fill('#login-name', nameB);
    await lobbyB.fill('#login-password', PASSWORD);
    await lobbyB.click('#login-submit');
    await lobbyB.waitForFunction(() =>
      document.body.textContent?.includes('Эта учётная запись отключена модератором.'),
    );
    await lobbyB.screenshot({ path: join(shots, 'moderation-login-refused.png') });

    // The rated game's effect annulled: both ratings go back to none.
    await m.page.fill('#adm-game', `${BASE}/g/${first}`);
    await m.page.fill('#adm-game-reason', 'договорная партия');
    await m.page.click('#adm-annul');
    await m.page.waitForFunction(() =>
      document.querySelector('#adm-status')?.textContent?.startsWith('Рейтинги пересчитаны'),
    );
    const said = await textOf(m.page, '#adm-status');
    check(said.includes(nameA) && said.includes(nameB), `both players' ratings recomputed: ${said}`);
    // The log names both actions in Russian, with who and why.
    await m.page.waitForFunction(() => (document.querySelector('#adm-log')?.textContent ?? '').includes('аннулировал'));
    const log = await textOf(m.page, '#adm-log');
    check(
      log.includes('отключил(а) учётную запись') && log.includes(nameM) && log.includes('оскорбления в чате'),
      `the log: ${log}`,
    );
    // The role given from the command line, in Russian words (the log keeps the role's key).
    check(log.includes(`${nameM}: модератор`), `the role change in Russian: ${log}`);
    await m.page.screenshot({ path: join(shots, 'moderation-log.png'), fullPage: true });
    check((await classicalRating(a.page, nameA)) === null, "Anna's rating is back to none (1500?)");
    check((await classicalRating(m.page, nameB)) === null, "Boris's rating is back to none (1500?)");
    check(
      (await a.page.locator('.rating-history[data-class="classical"]').count()) === 0,
      'no rating history point left',
    );
    await a.page.screenshot({ path: join(shots, 'moderation-profile-after.png') });
    for (const p of [a, b, m]) await p.context.close();
  });
}
