// The events page `/t`: the list of events with their status, and for a
// logged-in player the form to create one (eventform.ts). Creating goes to
// the event.

import { me } from '../accounts/account';
import { h, scrollBox } from '../dom';
import { t } from '../i18n/i18n';
import type { Navigate, Screen } from '../screen';
import { createEvent, listEvents, type EventSummary } from '../api/tournaments';
import { type EventForm, eventForm, freshForm } from './eventform';
import { datesText, formatText, statusText } from './words';

// Kept while the app is open, so a half-filled form survives a language switch.
let form: EventForm = freshForm();

/** Draws the events page. */
export function renderTournaments(root: HTMLElement, navigate: Navigate): Screen {
  let mine = new URLSearchParams(location.search).get('mine') === '1';
  const listBox = h('div', { id: 'event-list-box' });
  const formBox = h('div', { class: 'event-form-box' });

  const loadList = async () => {
    try {
      const events = await listEvents(mine);
      listBox.replaceChildren(eventTable(events));
    } catch (e) {
      listBox.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  };

  const drawForm = () => {
    if (!me()) {
      formBox.replaceChildren(h('p', { class: 'note', id: 'event-login-note' }, t('evLoginToCreate')));
      return;
    }
    const send = async (req: Parameters<typeof createEvent>[0]) => {
      const r = await createEvent(req);
      form = freshForm();
      navigate(`/t/${r.id}`);
    };
    formBox.replaceChildren(eventForm(form, { kind: 'create' }, send, drawForm));
  };

  const draw = () => {
    const mineBox = h('input', { type: 'checkbox', id: 'events-mine', checked: mine });
    mineBox.addEventListener('change', () => {
      mine = mineBox.checked;
      history.replaceState(null, '', mine ? '/t?mine=1' : '/t');
      loadList();
    });
    root.replaceChildren(
      h(
        'section',
        { class: 'events', id: 'events' },
        h('h1', {}, t('tournaments')),
        h('label', { class: 'check' }, mineBox, ' ', t('evOnlyMine')),
        listBox,
        formBox,
      ),
    );
    drawForm();
    loadList();
  };
  draw();
  return { destroy() {}, rerender: draw };
}

function eventTable(events: EventSummary[]): HTMLElement {
  if (events.length === 0) return h('p', { class: 'note', id: 'no-events' }, t('evNone'));
  const rows = events.map((e) =>
    h(
      'tr',
      { class: 'event-row', 'data-id': e.id },
      h('td', {}, h('a', { href: `/t/${e.id}`, 'data-link': true, class: 'event-link' }, e.name)),
      h('td', {}, e.place ?? ''),
      h('td', { class: 'nowrap' }, datesText(e.starts, e.ends)),
      h('td', {}, formatText(e.format)),
      h('td', { class: `event-status status-${e.status}` }, statusText(e.status)),
      h('td', { class: 'num' }, String(e.players)),
      h('td', { class: 'num' }, e.rounds ? `${e.round}/${e.rounds}` : String(e.round)),
    ),
  );
  return scrollBox(
    h(
      'table',
      { class: 'data-table', id: 'event-list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [t('evName'), t('evPlace'), t('evDates'), t('evFormat'), t('evStatus'), t('players'), t('evRound')].map((c) =>
            h('th', {}, c),
          ),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}
