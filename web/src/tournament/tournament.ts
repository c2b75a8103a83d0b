// An event's page `/t/<id>`: the header (name, place, dates, time control,
// format, status, organisers), the exports, and three tabs: the players (join
// an open event), the rounds (boards, colours and the furigoma toss, results,
// the online games and their records; a player reports an over-the-board
// result) and the standings with the event's tie-breaks. Organisers get their
// controls from admin.ts. The page fetches the event again every
// 10 s while it is visible, and after every action.

import { me } from '../accounts/account';
import { ApiError } from '../api/api';
import { h, option, scrollBox } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';
import { profilePath, rankText } from '../accounts/players';
import type { Navigate, Screen } from '../screen';
import { timeControlText } from '../rules/timecontrol';
import {
  addPlayer,
  exportPath,
  getEvent,
  reportResult,
  updateEvent,
  withdrawPlayer,
  type Board,
  type EventView,
  type Round,
} from '../api/tournaments';
import {
  adminBoardControls,
  auditPanel,
  organisersPanel,
  pairPanel,
  playerEditRow,
  addPlayerForm,
  invitationsPanel,
  type Act,
} from './admin';
import { type EventForm, eventForm, formFromEvent } from './eventform';
import {
  byeText,
  coloursText,
  datesText,
  formatText,
  playText,
  pointsText,
  resultLabel,
  scoreText,
  statusText,
  tiebreakName,
  tiebreakShort,
  tiebreakValue,
  warningText,
} from './words';

type Tab = 'players' | 'rounds' | 'standings';

/** How often the page fetches the event again while visible. */
const REFRESH_MS = 10000;

/** "no such event", in the page's own words, with a link to the list. */
export function eventNotFound(root: HTMLElement): Screen {
  const draw = () =>
    root.replaceChildren(
      h(
        'section',
        { class: 'not-found', id: 'not-found' },
        h('h2', {}, t('evNotFound')),
        h('p', {}, h('a', { href: '/t', 'data-link': true, id: 'go-events' }, t('tournaments'))),
      ),
    );
  draw();
  return { destroy() {}, rerender: draw };
}

/** A player's name by number ("?" for an unknown number). */
export function nameOf(ev: Pick<EventView, 'players'>, n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  return ev.players.find((p) => p.player === n)?.name ?? `#${n}`;
}

/** Opens the event `id`. */
export async function openTournament(root: HTMLElement, id: string, navigate: Navigate): Promise<Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, t('connecting')));
  let ev: EventView;
  try {
    ev = await getEvent(id);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 404 || e.status === 400)) return eventNotFound(root);
    root.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    return { destroy() {}, rerender() {} };
  }
  let tab: Tab = ev.status === 'registration' ? 'players' : ev.status === 'finished' ? 'standings' : 'rounds';
  let destroyed = false;
  let held = false;
  const errorEl = h('p', { class: 'error', id: 'event-error', role: 'alert' });
  const ui = {
    editing: null as number | null,
    /** The settings form while the organiser has it open (kept across refreshes). */
    settings: null as EventForm | null,
  };

  /** Whether the organiser is typing in the page: then a timed refresh waits. */
  const typing = () => {
    const a = document.activeElement;
    return !!a && root.contains(a) && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA');
  };
  const refresh = async (force: boolean) => {
    try {
      const next = await getEvent(id);
      if (destroyed) return;
      ev = next;
      if (!force && typing()) {
        held = true;
        return;
      }
      draw();
    } catch {
      // keep the page as it is; the next refresh tries again
    }
  };
  /** Runs an action; its error is shown, the event fetched again either way. */
  const act: Act = async (f) => {
    errorEl.textContent = '';
    try {
      await f();
    } catch (e) {
      errorEl.textContent = e instanceof Error ? e.message : String(e);
    }
    await refresh(true);
  };

  /** The organisers' settings form, open while they change it. */
  const settingsPanel = () => {
    const f = ui.settings;
    const panel = h(
      'details',
      { class: 'settings-panel', id: 'settings-panel', open: f !== null },
      h('summary', {}, t('evSettings')),
      f
        ? eventForm(
            f,
            { kind: 'edit', started: ev.paired.length > 0 },
            async (req) => {
              await updateEvent(ev.id, req);
              ui.settings = null;
              await refresh(true);
            },
            draw,
          )
        : null,
    );
    panel.addEventListener('toggle', () => {
      if (panel.open && !ui.settings) {
        ui.settings = formFromEvent(ev);
        draw();
      } else if (!panel.open && ui.settings) {
        ui.settings = null;
      }
    });
    return panel;
  };

  const draw = () => {
    held = false;
    const organiser = !!ev.you?.organiser;
    const tabs = (['players', 'rounds', 'standings'] as const).map((k) => {
      const b = h(
        'button',
        {
          type: 'button',
          role: 'tab',
          id: `tab-${k}`,
          class: `tab${tab === k ? ' active' : ''}`,
          'aria-selected': tab === k ? 'true' : 'false',
        },
        t(`evTab_${k}`),
      );
      b.addEventListener('click', () => {
        tab = k;
        draw();
      });
      return b;
    });
    const body =
      tab === 'players'
        ? playersSection(ev, ui, act, draw)
        : tab === 'rounds'
          ? roundsSection(ev, act)
          : standingsSection(ev);
    root.replaceChildren(
      h(
        'section',
        { class: 'event', id: 'event', 'data-id': ev.id, 'data-status': ev.status, 'data-round': String(ev.round) },
        eventHeader(ev),
        exportLinks(ev),
        errorEl,
        h('div', { class: 'tabs', role: 'tablist' }, tabs),
        h('div', { class: 'tab-body', id: `tab-body-${tab}` }, body),
        organiser ? settingsPanel() : null,
        organiser ? organisersPanel(ev, act) : null,
        organiser ? auditPanel(ev) : null,
      ),
    );
  };
  draw();

  const timer = window.setInterval(() => {
    if (document.visibilityState === 'visible') refresh(false);
  }, REFRESH_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh(false);
  };
  const onBlur = () => {
    if (held && !typing()) draw();
  };
  document.addEventListener('visibilitychange', onVisible);
  root.addEventListener('focusout', onBlur);
  void navigate;
  return {
    destroy() {
      destroyed = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      root.removeEventListener('focusout', onBlur);
    },
    rerender: draw,
  };
}

function eventHeader(ev: EventView): HTMLElement {
  const where = [ev.place ?? '', datesText(ev.starts, ev.ends)].filter(Boolean).join(' · ');
  const facts = [
    timeControlText(ev.time),
    formatText(ev.format, ev.double),
    ev.planned ? t('evRoundsOf').replace('{n}', String(ev.round)).replace('{m}', String(ev.planned)) : null,
    playText(ev.play),
    ev.rated ? t('rated') : t('casual'),
    ev.handicap ? t('evHandicapEvent') : null,
  ].filter(Boolean);
  return h(
    'header',
    { class: 'event-head' },
    h('h1', { id: 'event-name' }, ev.name),
    where ? h('p', { class: 'event-where' }, where) : null,
    h(
      'p',
      { class: 'event-facts', id: 'event-facts' },
      h('span', { class: `event-status status-${ev.status}`, id: 'event-status' }, statusText(ev.status)),
      ` · ${facts.join(' · ')}`,
    ),
    ev.organisers.length
      ? h(
          'p',
          { class: 'event-organisers note' },
          `${t('evOrganisers')}: `,
          ...ev.organisers.flatMap((o, i) => [i ? ', ' : '', h('a', { href: profilePath(o), 'data-link': true }, o)]),
        )
      : null,
  );
}

function exportLinks(ev: EventView): HTMLElement {
  const last = ev.paired.length ? ev.paired[ev.paired.length - 1].round : null;
  return h(
    'nav',
    { class: 'event-links' },
    h('a', { href: `/t/${ev.id}/crosstable`, 'data-link': true, id: 'link-crosstable' }, t('evCrosstable')),
    ev.format === 'round_robin'
      ? h('a', { href: `/t/${ev.id}/crosstable#rr-grid`, 'data-link': true, id: 'link-grid' }, t('evGrid'))
      : null,
    last
      ? h(
          'a',
          { href: `/t/${ev.id}/rounds/${last}/sheet`, 'data-link': true, id: 'link-sheet' },
          `${t('evPairingSheet')} (${t('evRoundN').replace('{n}', String(last))})`,
        )
      : null,
    h('a', { href: exportPath.csv(ev.id), download: '', id: 'link-csv' }, 'CSV'),
    h('a', { href: exportPath.report(ev.id), id: 'link-report' }, t('evReportTxt')),
    h('a', { href: exportPath.zip(ev.id), download: '', id: 'link-zip' }, t('evGamesZip')),
  );
}

function playersSection(ev: EventView, ui: { editing: number | null }, act: Act, redraw: () => void): HTMLElement {
  const m = me();
  const organiser = !!ev.you?.organiser;
  const mine = ev.you?.player ?? null;
  const canJoin = !!m && mine === null && ev.open && ev.status === 'registration';
  // An organiser is not asked to sign up for their own event, but may still play in it.
  const join = canJoin
    ? organiser
      ? h('button', { type: 'button', id: 'join-event' }, t('evJoinSelf'))
      : h('button', { type: 'button', class: 'primary', id: 'join-event' }, t('evJoin'))
    : null;
  join?.addEventListener('click', () => act(() => addPlayer(ev.id, {})));
  const rows = ev.players.map((p) => {
    if (organiser && ui.editing === p.player) {
      return playerEditRow(ev, p, act, () => {
        ui.editing = null;
        redraw();
      });
    }
    const actions: HTMLElement[] = [];
    if (organiser && !p.withdrawn) {
      const edit = h('button', { type: 'button', class: 'small player-edit' }, t('evEdit'));
      edit.addEventListener('click', () => {
        ui.editing = p.player;
        redraw();
      });
      actions.push(edit);
    }
    if ((organiser || p.player === mine) && !p.withdrawn) {
      const w = h('button', { type: 'button', class: 'small danger player-withdraw' }, t('evWithdraw'));
      w.addEventListener('click', () => {
        if (confirm(t('evConfirmWithdraw').replace('{name}', p.name))) act(() => withdrawPlayer(ev.id, p.player));
      });
      actions.push(w);
    }
    const state = p.withdrawn
      ? t('evWithdrawn')
      : p.from_round > 1
        ? t('evFromRound').replace('{n}', String(p.from_round))
        : '';
    return h(
      'tr',
      {
        class: `player-row${p.withdrawn ? ' withdrawn' : ''}${p.player === mine ? ' own' : ''}`,
        'data-player': String(p.player),
      },
      h('td', { class: 'num' }, String(p.player)),
      h(
        'td',
        { class: 'pname' },
        h('span', { class: 'player-name' }, p.name),
        p.account
          ? [' ', h('a', { href: profilePath(p.account), 'data-link': true, class: 'account-link' }, `@${p.account}`)]
          : null,
      ),
      h('td', { class: 'num' }, p.rating === null || p.rating === undefined ? '' : String(p.rating)),
      h(
        'td',
        {},
        rankText(p.rank),
        organiser && p.proposed_rank
          ? h(
              'span',
              { class: 'note proposed-rank' },
              ` ${t('evProposedRank').replace('{rank}', rankText(p.proposed_rank))}`,
            )
          : null,
      ),
      h('td', { class: 'club' }, p.club ?? ''),
      h('td', { class: 'note' }, state),
      h('td', { class: 'actions' }, actions),
    );
  });
  return h(
    'section',
    { class: 'event-players', id: 'event-players' },
    join,
    !m && ev.open && ev.status === 'registration'
      ? h('p', { class: 'note', id: 'join-login-note' }, t('evLoginToJoin'))
      : null,
    ev.players.length === 0
      ? h('p', { class: 'note', id: 'no-players' }, t('evNoPlayers'))
      : scrollBox(
          h(
            'table',
            { class: 'data-table', id: 'players-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                [t('evNo'), t('evPlayerName'), t('rating'), t('rank'), t('evClub'), '', ''].map((c) => h('th', {}, c)),
              ),
            ),
            h('tbody', {}, rows),
          ),
        ),
    organiser ? invitationsPanel(ev, act) : null,
    organiser ? addPlayerForm(ev, act) : null,
  );
}

/** A side's name on a board: "☗ Иванов Иван (3)". */
function sideCell(ev: EventView, n: number, mark: string): HTMLElement {
  return h(
    'span',
    { class: 'board-player' },
    `${mark} `,
    h('span', { class: 'player-name' }, nameOf(ev, n)),
    ` (${n})`,
  );
}

function boardRow(ev: EventView, r: Round, b: Board, act: Act): HTMLElement {
  const organiser = !!ev.you?.organiser;
  const mine = ev.you?.player ?? null;
  const seated = mine !== null && (b.sente === mine || b.gote === mine);
  const links: (HTMLElement | string)[] = [];
  b.games.forEach((g, i) => {
    const label =
      i === 0 ? (seated && !b.result ? t('evPlayGame') : t('evWatch')) : t('evReplayN').replace('{n}', String(i));
    if (links.length) links.push(' ');
    links.push(
      h(
        'a',
        { href: `/g/${g}`, 'data-link': true, class: i === 0 ? 'game-link' : 'replay-link', 'data-game': g },
        label,
      ),
    );
  });
  if (b.record || b.games.length) {
    links.push(
      ' ',
      h('a', { href: exportPath.record(ev.id, r.round, b.board), download: '', class: 'kif-link' }, 'KIF'),
    );
  }
  const handicap = b.handicap && b.handicap !== 'even' ? (t(`hc_${b.handicap}` as MsgKey) ?? b.handicap) : '';
  const resultCell = organiser
    ? adminBoardControls(ev, r, b, act)
    : h(
        'span',
        { class: 'result-text' },
        b.result ? `${scoreText(b.result)} ${resultLabel(b.result)}` : resultLabel(null),
      );
  return h(
    'tr',
    {
      class: 'board-row',
      'data-round': String(r.round),
      'data-board': String(b.board),
      'data-result': b.result ?? '',
      'data-play': b.play,
    },
    h('td', { class: 'num' }, String(b.board)),
    h('td', {}, sideCell(ev, b.sente, '☗')),
    h('td', {}, sideCell(ev, b.gote, '☖')),
    h('td', { class: 'colours' }, coloursText(b), handicap ? h('div', { class: 'tag' }, handicap) : null),
    h(
      'td',
      { class: 'result-cell' },
      resultCell,
      !organiser && seated && b.play === 'otb' && !b.result
        ? reportForm(ev, r, b, mine === b.sente ? 'sente' : 'gote', act)
        : null,
      reportsText(b),
    ),
    h('td', { class: 'game-links' }, b.play === 'otb' ? h('span', { class: 'tag' }, t('evOtb')) : null, ' ', links),
  );
}

/** What the two players reported for an over-the-board board, when anything. */
function reportsText(b: Board): HTMLElement | null {
  const rep = b.reports;
  if (!rep || b.result || (!rep.sente && !rep.gote)) return null;
  const side = (s: 'sente' | 'gote') => (rep[s] ? `${t(s)}: ${resultLabel(rep[s])}` : `${t(s)}: —`);
  return h('div', { class: 'note reports' }, `${t('evReported')} — ${side('sente')}; ${side('gote')}`);
}

/** A seated player's own report of an over-the-board result. */
function reportForm(ev: EventView, r: Round, b: Board, side: 'sente' | 'gote', act: Act): HTMLElement {
  const mine = b.reports?.[side] ?? '';
  const s = h(
    'select',
    { class: 'report-select', 'aria-label': t('evReportResult') },
    option('', '—', mine),
    (['sente', 'gote', 'draw'] as const).map((x) => option(x, resultLabel(x), mine)),
  );
  const send = h('button', { type: 'button', class: 'small report-send' }, t('evReport'));
  send.addEventListener('click', () => {
    if (s.value) act(() => reportResult(ev.id, r.round, b.board, s.value as 'sente' | 'gote' | 'draw'));
  });
  return h('div', { class: 'report-form' }, h('span', { class: 'note' }, `${t('evReportResult')}: `), s, send);
}

function roundsSection(ev: EventView, act: Act): HTMLElement {
  const organiser = !!ev.you?.organiser;
  const rounds = [...ev.paired]
    .sort((a, b) => b.round - a.round)
    .map((r) => {
      const warnings = r.warnings.map((w) =>
        h(
          'li',
          { class: 'warning', 'data-rule': w.rule },
          `${warningText(w.rule)}: ${w.players.map((n) => `${nameOf(ev, n)} (${n})`).join(', ')}`,
        ),
      );
      const byes = r.byes.map((b) =>
        h(
          'li',
          { class: 'bye', 'data-player': String(b.player) },
          `${nameOf(ev, b.player)} (${b.player}): ${byeText(b)}`,
        ),
      );
      return h(
        'section',
        { class: 'round', 'data-round': String(r.round) },
        h(
          'h3',
          {},
          t('evRoundN').replace('{n}', String(r.round)),
          ' ',
          h(
            'a',
            { href: `/t/${ev.id}/rounds/${r.round}/sheet`, 'data-link': true, class: 'sheet-link small-link' },
            t('evPairingSheet'),
          ),
        ),
        warnings.length ? h('ul', { class: 'warnings warn' }, warnings) : null,
        scrollBox(
          h(
            'table',
            { class: 'data-table boards-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                [t('evBoard'), t('sente'), t('gote'), t('evColours'), t('result'), t('evGame')].map((c) =>
                  h('th', {}, c),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              r.pairings.map((b) => boardRow(ev, r, b, act)),
            ),
          ),
        ),
        byes.length ? h('ul', { class: 'byes' }, byes) : null,
      );
    });
  return h(
    'section',
    { class: 'event-rounds', id: 'event-rounds' },
    organiser ? pairPanel(ev, act) : null,
    rounds.length ? rounds : h('p', { class: 'note', id: 'no-rounds' }, t('evNoRounds')),
  );
}

function standingsSection(ev: EventView): HTMLElement {
  if (ev.standings.length === 0) return h('p', { class: 'note', id: 'no-standings' }, t('evNoStandings'));
  const heads = [t('evRank'), t('evNo'), t('evPlayerName'), t('points'), ...ev.tiebreaks.map((k) => tiebreakShort(k))];
  const rows = ev.standings.map((s) =>
    h(
      'tr',
      { class: 'standing-row', 'data-player': String(s.player) },
      h('td', { class: 'num rank' }, String(s.rank)),
      h('td', { class: 'num' }, String(s.player)),
      h('td', { class: 'player-name' }, s.name),
      h('td', { class: 'num points', 'data-points': String(s.points) }, pointsText(s.points)),
      ev.tiebreaks.map((k) => h('td', { class: 'num tb', 'data-tb': k }, tiebreakValue(s.tiebreaks?.[k]))),
    ),
  );
  return h(
    'section',
    { class: 'event-standings', id: 'event-standings' },
    scrollBox(
      h(
        'table',
        { class: 'data-table', id: 'standings' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            heads.map((c, i) => h('th', i >= 4 ? { title: tiebreakName(ev.tiebreaks[i - 4]) } : {}, c)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
    ev.tiebreaks.length
      ? h(
          'p',
          { class: 'note tb-legend' },
          ev.tiebreaks.map((k) => `${tiebreakShort(k)}: ${tiebreakName(k)}`).join(' · '),
        )
      : null,
  );
}
