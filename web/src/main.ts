// The single-page app: the start screen at `/`, a game at `/g/<id>`, the
// archive, the import page and the review board; the language picker.

import './style.css';
import { h, option } from './dom';
import { renderArchive } from './archive';
import { openGame } from './game';
import { lang, LANGS, LANG_NAMES, setLang, t, type Lang } from './i18n';
import { renderNotFound } from './notfound';
import { renderImport } from './import';
import { openReview } from './review';
import type { Screen } from './screen';
import { renderStart } from './start';

const app = document.getElementById('app')!;
const header = h('header', { class: 'top' });
const main = h('main', {});
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
      h('a', { href: '/archive', 'data-link': true, id: 'link-archive' }, t('archive')),
      h('a', { href: '/import', 'data-link': true, id: 'link-import' }, t('import')),
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
  } else if (/^\/?$/.test(location.pathname)) {
    renderStart(main, navigate);
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

renderHeader();
route();
