// "Your game is ready": the logged-in player's online event games not yet
// finished (`GET /api/me/tournament-games`), each a link to the game, shown
// on the start screen (fetched again every 10 s) and on one's own profile.

import { h } from '../dom';
import { t } from '../i18n/i18n';
import { myEventGames, type MyEventGame } from '../api/tournaments';
import { type Polled, polled } from './polled';

/** One line of the banner: "Рождественский турнир, round 2, board 1: you play ☖ Gote against Борис". */
export function readyGameText(g: MyEventGame): string {
  const side = g.side === 'sente' ? `☗ ${t('sente')}` : `☖ ${t('gote')}`;
  return t('evReadyLine')
    .replace('{event}', g.name)
    .replace('{round}', String(g.round))
    .replace('{board}', String(g.board))
    .replace('{side}', side)
    .replace('{opponent}', g.opponent);
}

/** Fills `box` with the banner (empty when there is no game or nobody is logged in); `every_ms` > 0 keeps it fresh. */
export function gamesBanner(box: HTMLElement, everyMs: number): Polled {
  const draw = (games: MyEventGame[]) => {
    if (games.length === 0) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(
      h(
        'div',
        { class: 'ready-banner', id: 'tournament-games', role: 'status' },
        h('strong', {}, t('evGameReady')),
        h(
          'ul',
          {},
          games.map((g) =>
            h(
              'li',
              { class: 'ready-game', 'data-game': g.game },
              h('a', { href: `/g/${g.game}`, 'data-link': true, class: 'ready-link' }, readyGameText(g)),
              ' ',
              h('a', { href: `/t/${g.tournament}`, 'data-link': true, class: 'ready-event' }, t('evToEvent')),
            ),
          ),
        ),
      ),
    );
  };
  box.hidden = true;
  return polled(myEventGames, draw, everyMs);
}
