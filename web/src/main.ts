// The single-page app: the start screen (new game and the lobby) at `/`, a
// game at `/g/<id>`, the archive, the import page, the collections and game
// search at `/collections`, the review board and a player's profile at
// `/@/<name>`, the tournaments at `/t` (an event `/t/<id>`, its crosstable
// and pairing sheets), the learn pages (`/learn`, a lesson
// `/learn/<id>`, `/learn/coordinates`), the puzzles at `/puzzles`, the
// moderators' page at `/admin`; the account bar and the language picker.

import './styles/app.css';
import { loadMe, onAccountChange } from './accounts/account';
import { openAdmin } from './admin/admin';
import { redrawTextAfterFontLoads } from './fonts';
import { renderAccountBar } from './accounts/accountbar';
import { h, option } from './dom';
import { openAnalysisBoard } from './analysis/analysisboard';
import { renderArchive } from './archive/archive';
import { openCrosstable, openPairingSheet } from './tournament/crosstable';
import { openGame } from './game/screen';
import { lang, LANGS, LANG_NAMES, setLang, t, type Lang } from './i18n/i18n';
import { renderImport } from './archive/import';
import { renderCollections } from './archive/collections';
import { openLesson, renderLearn } from './learn/learn';
import { renderCoords } from './learn/coords';
import { syncProgress } from './learn/progress';
import { renderLobby } from './lobby/lobby';
import { openProfile } from './profile/profile';
import { openPuzzles, renderDailyPuzzle } from './puzzles/puzzles';
import { openReview } from './review/review';
import { renderNotFound, type Screen } from './screen';
import { renderStart } from './lobby/newgame';
import { openTournament } from './tournament/tournament';
import { renderTournaments } from './tournament/tournaments';

const app = document.getElementById('app') as HTMLElement;
const header = h('header', { class: 'top' });
const main = h('main', {});
const accountBar = h('div', { class: 'account-bar', id: 'account-bar' });
app.replaceChildren(header, main);

let screen: Screen | null = null;

function renderHeader(): void {
  const picker = h(
    'select',
    { id: 'lang', 'aria-label': t('language') },
    LANGS.map((l) => option(l, LANG_NAMES[l], lang())),
  );
  picker.addEventListener('change', () => {
    setLang(picker.value as Lang);
    renderHeader();
    if (screen) screen.rerender();
    else route();
  });
  header.replaceChildren(
    h('a', { href: '/', class: 'brand', 'data-link': true }, `☗ ${t('title')}`),
    h(
      'nav',
      { class: 'links' },
      h('a', { href: '/learn', 'data-link': true, id: 'link-learn' }, t('learn')),
      h('a', { href: '/puzzles', 'data-link': true, id: 'link-puzzles' }, t('puzzles')),
      h('a', { href: '/t', 'data-link': true, id: 'link-tournaments' }, t('tournaments')),
      h('a', { href: '/archive', 'data-link': true, id: 'link-archive' }, t('archive')),
      h('a', { href: '/import', 'data-link': true, id: 'link-import' }, t('import')),
      h('a', { href: '/collections', 'data-link': true, id: 'link-collections' }, t('collTitle')),
      h('a', { href: '/analysis', 'data-link': true, id: 'link-analysis' }, t('anBoard')),
    ),
    accountBar,
    h('label', { class: 'lang' }, h('span', { class: 'lang-label' }, t('language')), picker),
  );
  renderAccountBar(accountBar, refresh);
  document.title = t('title');
}

/** Draws the current address again (after logging in or out). */
function refresh(): void {
  route();
}

function navigate(path: string): void {
  history.pushState(null, '', path);
  route();
}

async function route(): Promise<void> {
  screen?.destroy();
  screen = null;
  const m = location.pathname.match(/^\/g\/([0-9a-f]{16})\/?$/);
  const r = location.pathname.match(/^\/review\/([0-9a-f]{16})\/?$/);
  const p = location.pathname.match(/^\/@\/([^/]+)\/?$/);
  const ev = location.pathname.match(/^\/t\/([0-9a-f]{16})(?:\/(crosstable)|\/rounds\/(\d{1,3})\/sheet)?\/?$/);
  const learn = location.pathname.match(/^\/learn(?:\/([a-z0-9-]{1,40}))?\/?$/);
  const pz = location.pathname.match(/^\/puzzles(?:\/([A-Za-z0-9_-]{1,32}))?\/?$/);
  if (learn) {
    if (!learn[1]) screen = renderLearn(main);
    else if (learn[1] === 'coordinates') screen = renderCoords(main);
    else screen = openLesson(main, learn[1]);
  } else if (pz) {
    screen = await openPuzzles(main, pz[1] ?? null);
  } else if (ev) {
    if (ev[2]) screen = await openCrosstable(main, ev[1]);
    else if (ev[3]) screen = await openPairingSheet(main, ev[1], Number(ev[3]));
    else screen = await openTournament(main, ev[1], navigate);
  } else if (/^\/t\/?$/.test(location.pathname)) {
    screen = renderTournaments(main, navigate);
  } else if (p) {
    let name = p[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      // a malformed escape: look the name up as it is
    }
    screen = await openProfile(main, name, navigate);
  } else if (r) {
    screen = await openReview(main, r[1], navigate);
  } else if (/^\/archive\/?$/.test(location.pathname)) {
    screen = renderArchive(main);
  } else if (/^\/analysis\/?$/.test(location.pathname)) {
    screen = openAnalysisBoard(main);
  } else if (/^\/admin\/?$/.test(location.pathname)) {
    screen = openAdmin(main);
  } else if (/^\/collections\/?$/.test(location.pathname)) {
    screen = renderCollections(main);
  } else if (/^\/import\/?$/.test(location.pathname)) {
    screen = renderImport(main, navigate);
  } else if (m) {
    const join = new URLSearchParams(location.search).get('join');
    screen = await openGame(main, m[1], join);
  } else if (/^\/?$/.test(location.pathname)) {
    const newGame = h('div', { class: 'start-new' });
    const lobby = h('div', { class: 'start-lobby' });
    const daily = h('div', { class: 'start-daily' });
    main.replaceChildren(h('div', { class: 'start-screen' }, daily, newGame, lobby));
    renderStart(newGame, navigate);
    renderDailyPuzzle(daily);
    const l = renderLobby(lobby, navigate);
    screen = {
      destroy: () => l.destroy(),
      rerender: () => {
        renderStart(newGame, navigate);
        renderDailyPuzzle(daily);
        l.rerender();
      },
    };
  } else {
    screen = renderNotFound(main, 'page');
  }
}

document.addEventListener('click', (e) => {
  const a = (e.target as HTMLElement).closest('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/');
});
window.addEventListener('popstate', () => route());

onAccountChange(() => renderAccountBar(accountBar, refresh));
onAccountChange(() => {
  syncProgress();
});
redrawTextAfterFontLoads();
renderHeader();
loadMe().finally(() => route());
