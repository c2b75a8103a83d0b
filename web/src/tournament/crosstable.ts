// The printable pages of an event: the crosstable `/t/<id>/crosstable` (a row
// a player in standings order: rank, number, name, rating or grade, club, a
// column a round with the opponent's number, one's colour ☗/☖ and the result
// + - =, points, the tie-breaks) and a round's pairing sheet
// `/t/<id>/rounds/<n>/sheet` (board, Sente and Gote with number and points,
// a blank to write the result in, the byes). The print style sheet hides the
// app's header and the page's links.

import { ApiError } from '../api/api';
import { h, scrollBox } from '../dom';
import { t } from '../i18n/i18n';
import { rankText } from '../accounts/players';
import { roundRobinGrid } from './grid';
import type { Screen } from '../screen';
import { timeControlText } from '../rules/timecontrol';
import { eventNotFound, nameOf } from './tournament';
import { exportPath, getEvent, type EventView } from '../api/tournaments';
import {
  byeText,
  crosstable,
  datesText,
  formatText,
  pointsBefore,
  pointsText,
  tiebreakName,
  tiebreakShort,
  tiebreakValue,
} from './words';

/** Loads the event, or shows "no such event". */
async function load(root: HTMLElement, id: string): Promise<EventView | Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, t('connecting')));
  try {
    return await getEvent(id);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 400)) return eventNotFound(root);
    root.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    return { destroy() {}, rerender() {} };
  }
}

function printHead(ev: EventView, title: string): HTMLElement {
  const facts = [
    ev.place ?? '',
    datesText(ev.starts, ev.ends),
    timeControlText(ev.time),
    formatText(ev.format, ev.double),
  ].filter(Boolean);
  return h(
    'header',
    { class: 'print-head' },
    h('h1', {}, h('span', { id: 'event-name' }, ev.name), ' — ', title),
    h('p', { class: 'event-where' }, facts.join(' · ')),
    h(
      'nav',
      { class: 'event-links no-print' },
      h('a', { href: `/t/${ev.id}`, 'data-link': true, id: 'back-to-event' }, `← ${t('evBackToEvent')}`),
      h('button', { type: 'button', id: 'print', onclick: () => printPart(null) }, t('evPrint')),
    ),
  );
}

/**
 * Prints the page, or only one part of it: `document.body`'s `data-print`
 * names the part the print style sheet keeps (`grid`: the round-robin
 * table on its own A4 landscape page).
 */
function printPart(part: 'grid' | null): void {
  if (part) document.body.dataset.print = part;
  else delete document.body.dataset.print;
  window.print();
}

/** The round robin's N×N table, with its own print button. */
function gridSection(ev: EventView): HTMLElement {
  const rows = roundRobinGrid(ev);
  const head = h(
    'tr',
    {},
    h('th', { class: 'num' }, t('evNo')),
    h('th', { class: 'player-name' }, t('evPlayerName')),
    rows.map((r) => h('th', { class: 'grid-col' }, String(r.player))),
    h('th', { class: 'num points' }, t('points')),
    ev.tiebreaks.map((k) => h('th', { class: 'num', title: tiebreakName(k) }, tiebreakShort(k))),
    h('th', { class: 'num' }, t('evRank')),
  );
  const body = rows.map((r) =>
    h(
      'tr',
      { class: 'grid-row', 'data-player': String(r.player) },
      h('td', { class: 'num' }, String(r.player)),
      h(
        'td',
        { class: 'player-name' },
        r.name,
        r.grade ? h('span', { class: 'grade' }, ` ${rankText(r.grade)}`) : null,
      ),
      r.cells.map((c) =>
        c === null
          ? h('td', { class: 'grid-cell self', 'aria-label': '×' })
          : h('td', { class: 'grid-cell' }, c.filter(Boolean).join(' ')),
      ),
      h('td', { class: 'num points' }, pointsText(r.points)),
      ev.tiebreaks.map((k) => h('td', { class: 'num' }, tiebreakValue(r.tiebreaks[k]))),
      h('td', { class: 'num place' }, r.place ? String(r.place) : ''),
    ),
  );
  return h(
    'section',
    { class: 'rr-grid-section', id: 'rr-grid-section' },
    h(
      'h2',
      {},
      t('evGrid'),
      ' ',
      h(
        'button',
        { type: 'button', class: 'small no-print', id: 'print-grid', onclick: () => printPart('grid') },
        t('evGridPrint'),
      ),
    ),
    scrollBox(
      h(
        'table',
        { class: `data-table rr-grid${ev.double ? ' double' : ''}`, id: 'rr-grid' },
        h('thead', {}, head),
        h('tbody', {}, body),
      ),
    ),
    h('p', { class: 'note legend' }, t('evGridLegend')),
  );
}

/** The crosstable page. */
export async function openCrosstable(root: HTMLElement, id: string): Promise<Screen> {
  const got = await load(root, id);
  if (!('paired' in got)) return got;
  const ev = got;
  const draw = () => {
    const rows = crosstable(ev);
    const rounds = ev.paired.map((r) => r.round);
    const head = h(
      'tr',
      {},
      h('th', {}, t('evRank')),
      h('th', {}, t('evNo')),
      h('th', { class: 'player-name' }, t('evPlayerName')),
      h('th', {}, `${t('rating')} / ${t('rank')}`),
      h('th', {}, t('evClub')),
      rounds.map((n) => h('th', { class: 'round-col' }, String(n))),
      h('th', { class: 'points' }, t('points')),
      ev.tiebreaks.map((k) => h('th', { title: tiebreakName(k) }, tiebreakShort(k))),
    );
    const body = rows.map((r) =>
      h(
        'tr',
        { class: 'cross-row', 'data-player': String(r.player) },
        h('td', { class: 'num' }, r.rank ? String(r.rank) : ''),
        h('td', { class: 'num' }, String(r.player)),
        h('td', { class: 'player-name' }, r.name),
        h('td', {}, [r.rating ?? '', rankText(r.grade)].filter((x) => x !== '').join(' · ')),
        h('td', { class: 'club' }, r.club ?? ''),
        r.cells.map((c) =>
          h(
            'td',
            {
              class: `cell${c.mark === '+' ? ' win' : c.mark === '-' ? ' loss' : c.mark === '=' ? ' drawn' : ''}`,
              'data-opponent': c.opponent === null ? '' : String(c.opponent),
            },
            c.text,
          ),
        ),
        h('td', { class: 'num points' }, pointsText(r.points)),
        ev.tiebreaks.map((k) => h('td', { class: 'num' }, tiebreakValue(r.tiebreaks[k]))),
      ),
    );
    root.replaceChildren(
      h(
        'section',
        { class: 'printable crosstable-page', id: 'crosstable-page' },
        printHead(ev, t('evCrosstable')),
        h(
          'div',
          { class: 'by-rounds' },
          scrollBox(
            h(
              'table',
              { class: 'data-table crosstable', id: 'crosstable' },
              h('thead', {}, head),
              h('tbody', {}, body),
            ),
          ),
          h(
            'p',
            { class: 'note legend' },
            `☗ ${t('sente')} · ☖ ${t('gote')} · + ${t('evWin')} · - ${t('evLoss')} · = ${t('draw')} · * ${t('evForfeit')}`,
            ev.tiebreaks.length
              ? ` · ${ev.tiebreaks.map((k) => `${tiebreakShort(k)}: ${tiebreakName(k)}`).join(' · ')}`
              : '',
          ),
          h(
            'p',
            { class: 'no-print' },
            h('a', { href: exportPath.csv(ev.id), download: '' }, 'CSV'),
            ' · ',
            h('a', { href: exportPath.report(ev.id) }, t('evReportTxt')),
          ),
        ),
        ev.format === 'round_robin' ? gridSection(ev) : null,
      ),
    );
    if (location.hash === '#rr-grid') document.getElementById('rr-grid-section')?.scrollIntoView();
  };
  draw();
  return {
    destroy() {
      delete document.body.dataset.print;
    },
    rerender: draw,
  };
}

/** A round's pairing sheet. */
export async function openPairingSheet(root: HTMLElement, id: string, round: number): Promise<Screen> {
  const got = await load(root, id);
  if (!('paired' in got)) return got;
  const ev = got;
  const draw = () => {
    const r = ev.paired.find((x) => x.round === round);
    if (!r) {
      root.replaceChildren(
        h(
          'section',
          { class: 'not-found', id: 'not-found' },
          h('h2', {}, t('evNoSuchRound')),
          h('p', {}, h('a', { href: `/t/${ev.id}`, 'data-link': true }, ev.name)),
        ),
      );
      return;
    }
    const who = (n: number) => `${nameOf(ev, n)} (${n}) · ${pointsText(pointsBefore(ev, n, round))}`;
    const rows = r.pairings.map((b) =>
      h(
        'tr',
        { class: 'sheet-row', 'data-board': String(b.board) },
        h('td', { class: 'num' }, String(b.board)),
        h('td', {}, `☗ ${who(b.sente)}`),
        h(
          'td',
          { class: 'blank' },
          b.result
            ? b.result === 'sente'
              ? '1 – 0'
              : b.result === 'gote'
                ? '0 – 1'
                : b.result === 'draw'
                  ? '½ – ½'
                  : b.result
            : '',
        ),
        h('td', {}, `☖ ${who(b.gote)}`),
      ),
    );
    root.replaceChildren(
      h(
        'section',
        { class: 'printable sheet-page', id: 'sheet-page' },
        printHead(ev, t('evRoundN').replace('{n}', String(round))),
        scrollBox(
          h(
            'table',
            { class: 'data-table pairing-sheet', id: 'pairing-sheet' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                [t('evBoard'), t('sente'), t('result'), t('gote')].map((c) => h('th', {}, c)),
              ),
            ),
            h('tbody', {}, rows),
          ),
        ),
        r.byes.length
          ? h(
              'ul',
              { class: 'byes' },
              r.byes.map((b) => h('li', {}, `${nameOf(ev, b.player)} (${b.player}): ${byeText(b)}`)),
            )
          : null,
      ),
    );
  };
  draw();
  return { destroy() {}, rerender: draw };
}
