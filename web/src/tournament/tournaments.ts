// The events page `/t`: the list of events with their status, and for a
// logged-in player the form to create one (name, place, dates, time control,
// format, rounds, rating, how games are played, the impasse rule, the
// tie-break order, registration and handicaps). Creating goes to the event.

import { me } from '../accounts/account';
import { rankText } from '../accounts/players';
import { h, option, scrollBox } from '../dom';
import { t } from '../i18n/i18n';
import type { Navigate, Screen } from '../screen';
import { customTimeFields, SEEK_PRESETS, seekTime, timeControlText } from '../rules/timecontrol';
import {
  createEvent,
  defaultTiebreaks,
  listEvents,
  TIEBREAKS,
  type CreateEvent,
  type EventSummary,
  type Format,
  type Play,
  type TiebreakKey,
} from '../api/tournaments';
import { datesText, formatText, statusText, tiebreakName } from './words';

/** The format menu: the three formats, a double round robin as a fourth choice. */
type FormatChoice = 'round_robin' | 'double_round_robin' | 'swiss' | 'mcmahon';

interface EventForm {
  name: string;
  place: string;
  starts: string;
  ends: string;
  time: string;
  mainMin: number;
  byoSec: number;
  periods: number;
  incSec: number;
  format: FormatChoice;
  rounds: string;
  rated: boolean;
  play: Play;
  impasse: string;
  tiebreaks: TiebreakKey[];
  /** Whether the organiser changed the tie-breaks (then a format change keeps them). */
  tiebreaksTouched: boolean;
  open: boolean;
  handicap: boolean;
  chat: boolean;
  takebacks: boolean;
  bar: string;
  floor: string;
}

function freshForm(): EventForm {
  return {
    name: '',
    place: '',
    starts: '',
    ends: '',
    time: '30+30',
    mainMin: 30,
    byoSec: 30,
    periods: 1,
    incSec: 0,
    format: 'swiss',
    rounds: '5',
    rated: false,
    play: 'online',
    impasse: '27',
    tiebreaks: defaultTiebreaks('swiss'),
    tiebreaksTouched: false,
    open: true,
    handicap: false,
    chat: false,
    takebacks: false,
    bar: rankText('1d'),
    floor: rankText('10k'),
  };
}

// Kept while the app is open, so a half-filled form survives a language switch.
let form: EventForm = freshForm();

function baseFormat(f: FormatChoice): Format {
  return f === 'double_round_robin' ? 'round_robin' : f;
}

/** The request the form makes. */
export function createRequest(f: EventForm): CreateEvent {
  const format = baseFormat(f.format);
  const req: CreateEvent = {
    name: f.name.trim(),
    format,
    time: seekTime(f),
    rated: f.rated,
    play: f.play,
    impasse: f.impasse,
    tiebreaks: [...f.tiebreaks],
    open: f.open,
    handicap: f.handicap,
    chat: f.chat,
    takebacks: f.takebacks,
  };
  if (f.place.trim()) req.place = f.place.trim();
  if (f.starts) req.starts = f.starts;
  if (f.ends) req.ends = f.ends;
  const rounds = Number.parseInt(f.rounds, 10);
  if (Number.isFinite(rounds) && rounds > 0) req.rounds = rounds;
  if (format === 'round_robin') req.double = f.format === 'double_round_robin';
  if (format === 'mcmahon') req.mcmahon = { bar: f.bar.trim(), floor: f.floor.trim() };
  return req;
}

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
    formBox.replaceChildren(createForm(navigate, drawForm));
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

/** The form to create an event. */
function createForm(navigate: Navigate, redraw: () => void): HTMLElement {
  const f = form;
  const field = (label: string, control: HTMLElement, id?: string) =>
    h('label', { class: 'field', id }, h('span', {}, label), control);
  const text = (
    key: 'name' | 'place' | 'bar' | 'floor',
    id: string,
    attrs: Record<string, string | number | boolean> = {},
  ) => {
    const i = h('input', { id, name: id, value: f[key], ...attrs });
    i.addEventListener('input', () => (f[key] = i.value));
    return i;
  };
  const date = (key: 'starts' | 'ends', id: string) => {
    const i = h('input', { type: 'date', id, name: id, value: f[key] });
    i.addEventListener('input', () => (f[key] = i.value));
    return i;
  };
  const select = (id: string, opts: [string, string][], value: string, onChange: (v: string) => void) => {
    const s = h(
      'select',
      { id, name: id },
      opts.map(([v, l]) => option(v, l, value)),
    );
    s.addEventListener('change', () => onChange(s.value));
    return s;
  };
  const check = (key: 'rated' | 'open' | 'handicap' | 'chat' | 'takebacks', id: string, label: string) => {
    const c = h('input', { type: 'checkbox', id, name: id, checked: f[key] });
    c.addEventListener('change', () => (f[key] = c.checked));
    return h('label', { class: 'check' }, c, ' ', label);
  };

  const custom = customTimeFields(f, (key) => ({ id: `te-${key}` }));
  custom.hidden = f.time !== 'custom';
  const isRoundRobin = baseFormat(f.format) === 'round_robin';
  const rounds = h('input', {
    type: 'number',
    id: 'te-rounds',
    name: 'te-rounds',
    min: 1,
    max: 99,
    step: 1,
    value: f.rounds,
    placeholder: isRoundRobin ? t('evRoundsAuto') : '',
  });
  rounds.addEventListener('input', () => (f.rounds = rounds.value));

  // The tie-breaks: the chosen ones in order (up, down, remove), then the others to add.
  const tbList = h('ol', { class: 'tb-order', id: 'te-tiebreaks' });
  const drawTiebreaks = () => {
    const chosen = f.tiebreaks.map((k, i) => {
      const up = h('button', { type: 'button', class: 'small', 'aria-label': t('evMoveUp'), disabled: i === 0 }, '↑');
      const down = h(
        'button',
        { type: 'button', class: 'small', 'aria-label': t('evMoveDown'), disabled: i === f.tiebreaks.length - 1 },
        '↓',
      );
      const remove = h('button', { type: 'button', class: 'small', 'aria-label': t('evRemove') }, '×');
      const move = (d: number) => {
        const a = [...f.tiebreaks];
        [a[i], a[i + d]] = [a[i + d], a[i]];
        f.tiebreaks = a;
        f.tiebreaksTouched = true;
        drawTiebreaks();
      };
      up.addEventListener('click', () => move(-1));
      down.addEventListener('click', () => move(1));
      remove.addEventListener('click', () => {
        f.tiebreaks = f.tiebreaks.filter((x) => x !== k);
        f.tiebreaksTouched = true;
        drawTiebreaks();
      });
      return h('li', { class: 'tb-item', 'data-key': k }, h('span', {}, tiebreakName(k)), up, down, remove);
    });
    const others = TIEBREAKS.filter((k) => !f.tiebreaks.includes(k));
    const add = h(
      'select',
      { id: 'te-tb-add', 'aria-label': t('evAddTiebreak') },
      option('', `+ ${t('evAddTiebreak')}`, ''),
      others.map((k) => option(k, tiebreakName(k), '')),
    );
    add.addEventListener('change', () => {
      if (!add.value) return;
      f.tiebreaks = [...f.tiebreaks, add.value as TiebreakKey];
      f.tiebreaksTouched = true;
      drawTiebreaks();
    });
    tbList.replaceChildren(...chosen);
    tbBox.replaceChildren(tbList, others.length ? add : '');
  };
  const tbBox = h('div', { class: 'tb-box' });
  drawTiebreaks();

  const error = h('p', { class: 'error', id: 'te-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'te-submit' }, t('evCreate'));
  const el = h(
    'form',
    { class: 'event-form', id: 'event-form' },
    h('h2', {}, t('evCreateTitle')),
    h(
      'div',
      { class: 'seek-grid' },
      field(t('evName'), text('name', 'te-name', { required: true, maxlength: 100 })),
      field(t('evPlace'), text('place', 'te-place', { maxlength: 100 })),
      field(t('evStarts'), date('starts', 'te-starts')),
      field(t('evEnds'), date('ends', 'te-ends')),
      field(
        t('timeControl'),
        select(
          'te-time',
          [...SEEK_PRESETS.map(([k, tc]): [string, string] => [k, timeControlText(tc)]), ['custom', t('tcCustom')]],
          f.time,
          (v) => {
            f.time = v;
            custom.hidden = v !== 'custom';
          },
        ),
      ),
      field(
        t('evFormat'),
        select(
          'te-format',
          [
            ['round_robin', formatText('round_robin')],
            ['double_round_robin', formatText('round_robin', true)],
            ['swiss', formatText('swiss')],
            ['mcmahon', formatText('mcmahon')],
          ],
          f.format,
          (v) => {
            const was = baseFormat(f.format);
            f.format = v as FormatChoice;
            if (!f.tiebreaksTouched && baseFormat(f.format) !== was)
              f.tiebreaks = defaultTiebreaks(baseFormat(f.format));
            if (baseFormat(f.format) === 'round_robin' && was !== 'round_robin') f.rounds = '';
            redraw();
          },
        ),
      ),
      field(t('evRounds'), rounds),
      field(
        t('evPlay'),
        select(
          'te-play',
          (['online', 'otb', 'mixed'] as const).map((p): [string, string] => [p, t(`play_${p}`)]),
          f.play,
          (v) => (f.play = v as Play),
        ),
      ),
      field(
        t('impasseRule'),
        select(
          'te-impasse',
          [
            ['27', t('imp27')],
            ['24', t('imp24')],
            ['count24', t('impCount24')],
            ['try', t('impTry')],
            ['none', t('impNone')],
          ],
          f.impasse,
          (v) => (f.impasse = v),
        ),
      ),
    ),
    custom,
    f.format === 'mcmahon'
      ? h(
          'div',
          { class: 'seek-grid', id: 'te-mcmahon' },
          field(t('evBar'), text('bar', 'te-bar', { maxlength: 12, placeholder: rankText('1d') })),
          field(t('evFloor'), text('floor', 'te-floor', { maxlength: 12, placeholder: rankText('10k') })),
        )
      : null,
    h('div', { class: 'field' }, h('span', {}, t('evTiebreaks')), tbBox),
    h(
      'div',
      { class: 'checks' },
      check('rated', 'te-rated', t('evRated')),
      check('open', 'te-open', t('evOpen')),
      check('handicap', 'te-handicap', t('evHandicap')),
      check('chat', 'te-chat', t('evChat')),
      check('takebacks', 'te-takebacks', t('evTakebacks')),
    ),
    submit,
    error,
  );
  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    if (!f.name.trim()) {
      error.textContent = t('evNameNeeded');
      return;
    }
    submit.disabled = true;
    try {
      const r = await createEvent(createRequest(f));
      form = freshForm();
      navigate(`/t/${r.id}`);
    } catch (err) {
      error.textContent = err instanceof Error ? err.message : String(err);
      submit.disabled = false;
    }
  });
  return el;
}
