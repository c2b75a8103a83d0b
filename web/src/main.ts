// The single-page app: the start screen at `/`, a game at `/g/<id>`.

import './style.css';
import { h, option } from './dom';
import { openGame, type GameScreen } from './game';
import { lang, LANGS, LANG_NAMES, setLang, t, tr, type Lang } from './i18n';
import { openReview, renderArchive, renderImport, type Screen } from './review';
import { renderStart } from './start';

const app = document.getElementById('app')!;
const header = h('header', { class: 'top' });
const main = h('main', {});
app.replaceChildren(header, main);

let screen: GameScreen | Screen | null = null;

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
      h('a', { href: '/archive', 'data-link': true, id: 'link-archive' }, tr('archive')),
      h('a', { href: '/import', 'data-link': true, id: 'link-import' }, tr('import')),
    ),
    h('label', { class: 'lang' }, h('span', {}, t('language')), picker),
  );
  document.title = t('title');
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
  if (r) {
    screen = await openReview(main, r[1], navigate);
  } else if (/^\/archive\/?$/.test(location.pathname)) {
    screen = renderArchive(main);
  } else if (/^\/import\/?$/.test(location.pathname)) {
    screen = renderImport(main, navigate);
  } else if (m) {
    const join = new URLSearchParams(location.search).get('join');
    screen = await openGame(main, m[1], join);
  } else {
    renderStart(main, navigate);
  }
}

document.addEventListener('click', (e) => {
  const a = (e.target as HTMLElement).closest('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/');
});
window.addEventListener('popstate', () => route());

renderHeader();
route();
