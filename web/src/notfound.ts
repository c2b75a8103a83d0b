// The "not found" screen: an unknown page, or a game or record id the server
// does not know, said in the UI language with a link to the start page.

import { h } from './dom';
import { t } from './i18n';
import type { Screen } from './screen';

/** Shows that `what` (a page, or a game) does not exist. */
export function renderNotFound(root: HTMLElement, what: 'page' | 'game'): Screen {
  const draw = () =>
    root.replaceChildren(
      h(
        'section',
        { class: 'not-found', id: 'not-found' },
        h('h2', {}, what === 'page' ? t('pageNotFound') : t('notFound')),
        h('p', {}, h('a', { href: '/', 'data-link': true, id: 'go-home' }, t('goHome'))),
      ),
    );
  draw();
  return { destroy() {}, rerender: draw };
}
