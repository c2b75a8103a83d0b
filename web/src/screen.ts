// What every screen of the app gives the router, and the "not found" screen: an
// unknown page, a game or record id or a player the server does not know, said in
// the UI language with a link to the start page.

import { h } from './dom';
import { t } from './i18n/i18n';

/** A screen shown in the page's main area. */
export interface Screen {
  /** Removes the screen's listeners, timers and board before another screen takes its place. */
  destroy(): void;
  /** Draws the screen again in the current language. */
  rerender(): void;
}

/** Goes to another screen of the app by its path (`/review/<id>`). */
export type Navigate = (path: string) => void;

/** Shows that `what` (a page, or a game) does not exist. */
export function renderNotFound(root: HTMLElement, what: 'page' | 'game' | 'player'): Screen {
  const draw = () =>
    root.replaceChildren(
      h(
        'section',
        { class: 'not-found', id: 'not-found' },
        h('h2', {}, what === 'page' ? t('pageNotFound') : what === 'player' ? t('noSuchPlayer') : t('notFound')),
        h('p', {}, h('a', { href: '/', 'data-link': true, id: 'go-home' }, t('goHome'))),
      ),
    );
  draw();
  return { destroy() {}, rerender: draw };
}
