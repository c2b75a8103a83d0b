// The organisers' controls on an event's page: adding and editing players,
// a board's result menu, its over-the-board record (KIF pasted or chosen as
// a file) and its online / over-the-board switch in a mixed event, pairing
// the next round (players sitting out with 0, ½ or 1 point, pairs forced
// together) or unpairing the last, the co-organisers, and the audit log.

import { filePicker, h, option, scrollBox } from '../dom';
import { lang, t, type MsgKey } from '../i18n/i18n';
import { HANDICAPS } from '../rules/handicaps';
import {
  addOrganiser,
  addPlayer,
  auditLog,
  editPlayer,
  pairRound,
  putBoard,
  removeOrganiser,
  RESULTS,
  unpairRound,
  withdrawInvitation,
  type Board,
  type BoardResult,
  type EventPlayer,
  type EventView,
  type PlayerEntry,
  type Round,
} from '../api/tournaments';
import { rankText } from '../accounts/players';
import { auditText } from './audit';
import { pointsText, resultLabel, scoreText } from './words';

/** Runs a change: its error is shown on the page, and the event is fetched again. */
export type Act = (f: () => Promise<unknown>) => Promise<void>;

/** The add-player form's fields, kept while the page redraws (every 10 s). */
const addForm = { name: '', account: '', rating: '', rank: '', club: '' };
/** The next round's sit-outs and forced pairs, per event, kept while the page redraws. */
const pairState = new Map<
  string,
  { sitOut: { player: number; points: number }[]; forced: [number, number][]; open: boolean }
>();
/** The last account invited per event (a 202: invited, not entered), said under the form. */
const invitedNote = new Map<string, string>();
/** KIF text pasted per board (`<event>/<round>/<board>`), kept while the page redraws. */
const kifText = new Map<string, string>();

function entry(f: { name: string; account?: string; rating: string; rank: string; club: string }): PlayerEntry {
  const e: PlayerEntry = {};
  if (f.name.trim()) e.name = f.name.trim();
  if (f.account?.trim()) e.account = f.account.trim();
  const rating = Number.parseInt(f.rating, 10);
  e.rating = Number.isFinite(rating) ? rating : null;
  e.rank = f.rank.trim() || null;
  e.club = f.club.trim() || null;
  return e;
}

/** The form to add a player (an account, or an over-the-board player by name). */
export function addPlayerForm(ev: EventView, act: Act): HTMLElement {
  const input = (key: keyof typeof addForm, label: string, attrs: Record<string, string | number | boolean>) => {
    const i = h('input', { id: `ap-${key}`, name: `ap-${key}`, value: addForm[key], ...attrs });
    i.addEventListener('input', () => (addForm[key] = i.value));
    return h('label', { class: 'field' }, h('span', {}, label), i);
  };
  const submit = h('button', { type: 'submit', class: 'primary', id: 'ap-submit' }, t('evAddPlayer'));
  const f = h(
    'form',
    { class: 'add-player', id: 'add-player' },
    h('h3', {}, t('evAddPlayer')),
    h(
      'div',
      { class: 'seek-grid' },
      input('name', t('evPlayerName'), { maxlength: 60 }),
      input('account', t('evAccount'), { maxlength: 24, placeholder: t('optional') }),
      input('rating', t('rating'), { type: 'number', min: 0, max: 4000, step: 1, placeholder: t('optional') }),
      input('rank', t('rank'), { maxlength: 12, placeholder: t('rankPlaceholder') }),
      input('club', t('evClub'), { maxlength: 60, placeholder: t('optional') }),
    ),
    ev.status !== 'registration' ? h('p', { class: 'note' }, t('evLateEntry')) : null,
    submit,
  );
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!addForm.name.trim() && !addForm.account.trim()) return;
    const body = entry(addForm);
    submit.disabled = true;
    act(async () => {
      const added = await addPlayer(ev.id, body);
      if (added?.invitation) invitedNote.set(ev.id, added.invitation.name);
      else invitedNote.delete(ev.id);
      for (const k of Object.keys(addForm) as (keyof typeof addForm)[]) addForm[k] = '';
    });
  });
  return f;
}

/** The pending invitations (an account enters only by accepting), each with a withdraw button. */
export function invitationsPanel(ev: EventView, act: Act): HTMLElement | null {
  const invited = invitedNote.get(ev.id);
  const note = invited
    ? h('p', { class: 'note', id: 'invited-note', role: 'status' }, t('evInvitedNote').replace('{name}', invited))
    : null;
  if (ev.invitations.length === 0) return note;
  const items = ev.invitations.map((i) => {
    const withdraw = h('button', { type: 'button', class: 'small invitation-withdraw' }, t('evWithdrawInvitation'));
    withdraw.addEventListener('click', () => {
      withdraw.disabled = true;
      act(async () => {
        await withdrawInvitation(ev.id, i.name);
        if (invitedNote.get(ev.id) === i.name) invitedNote.delete(ev.id);
      });
    });
    const extra = [i.rank, i.club].filter((x): x is string => !!x).join(', ');
    return h(
      'li',
      { class: 'pending-invitation', 'data-name': i.name },
      h('span', { class: 'player-name' }, i.name),
      extra ? ` (${extra})` : '',
      ' — ',
      h('span', { class: 'note' }, t('evInvitedBy').replace('{by}', i.by)),
      ' ',
      withdraw,
    );
  });
  return h(
    'div',
    { class: 'invitations-panel', id: 'invitations-panel' },
    note,
    h('h3', {}, t('evInvitations')),
    h('ul', { class: 'plain' }, items),
  );
}

/** A player's row turned into a form (name, rating, rank, club). */
export function playerEditRow(ev: EventView, p: EventPlayer, act: Act, done: () => void): HTMLElement {
  const vals = {
    name: p.name,
    rating: p.rating === null ? '' : String(p.rating),
    rank: rankText(p.rank),
    club: p.club ?? '',
  };
  const input = (key: keyof typeof vals, attrs: Record<string, string | number>) => {
    const i = h('input', { class: `pe-${key}`, value: vals[key], ...attrs });
    i.addEventListener('input', () => (vals[key] = i.value));
    return i;
  };
  const save = h('button', { type: 'button', class: 'small primary player-save' }, t('save'));
  const cancel = h('button', { type: 'button', class: 'small' }, t('cancel'));
  save.addEventListener('click', () =>
    act(async () => {
      await editPlayer(ev.id, p.player, entry(vals));
      done();
    }),
  );
  cancel.addEventListener('click', done);
  return h(
    'tr',
    { class: 'player-row editing', 'data-player': String(p.player) },
    h('td', { class: 'num' }, String(p.player)),
    h('td', {}, input('name', { 'aria-label': t('evPlayerName'), maxlength: 60 })),
    h('td', {}, input('rating', { 'aria-label': t('rating'), type: 'number', min: 0, max: 4000, class: 'narrow' })),
    h(
      'td',
      {},
      input('rank', { 'aria-label': t('rank'), maxlength: 12, placeholder: t('rankPlaceholder'), class: 'narrow' }),
    ),
    h('td', {}, input('club', { 'aria-label': t('evClub'), maxlength: 60 })),
    h('td', {}, ''),
    h('td', { class: 'actions' }, save, cancel),
  );
}

/** A board's result menu, its record upload and its online / over-the-board switch (organisers). */
export function adminBoardControls(ev: EventView, r: Round, b: Board, act: Act): HTMLElement {
  const sel = h(
    'select',
    { class: 'result-select', 'aria-label': `${t('result')} ${b.board}` },
    option('', resultLabel(null), b.result ?? ''),
    RESULTS.map((x) => option(x, `${scoreText(x)} ${resultLabel(x)}`, b.result ?? '')),
  );
  sel.addEventListener('change', () => {
    const v = sel.value === '' ? null : (sel.value as BoardResult);
    act(() => putBoard(ev.id, r.round, b.board, { result: v }));
  });
  const parts: HTMLElement[] = [sel];
  if (ev.play === 'mixed' && !b.result) {
    const play = h(
      'select',
      { class: 'play-select', 'aria-label': t('evPlay') },
      option('online', t('play_online'), b.play),
      option('otb', t('play_otb'), b.play),
    );
    play.addEventListener('change', () =>
      act(() => putBoard(ev.id, r.round, b.board, { play: play.value as 'online' | 'otb' })),
    );
    parts.push(play);
  }
  if (ev.handicap && !b.result) {
    // The grade-gap table only suggests: an organiser may set another
    // handicap before the board is played (Gote gives it).
    const hc = h(
      'select',
      { class: 'handicap-select', 'aria-label': `${t('handicap')} ${b.board}` },
      HANDICAPS.map((x) => option(x, t(`hc_${x}` as MsgKey), b.handicap)),
    );
    hc.addEventListener('change', () => act(() => putBoard(ev.id, r.round, b.board, { handicap: hc.value })));
    parts.push(hc);
  }
  if (b.play === 'otb') parts.push(kifUpload(ev, r, b, act));
  return h('div', { class: 'admin-board' }, parts);
}

function kifUpload(ev: EventView, r: Round, b: Board, act: Act): HTMLElement {
  const key = `${ev.id}/${r.round}/${b.board}`;
  const area = h('textarea', { class: 'kif-text', rows: 5, 'aria-label': 'KIF', placeholder: t('evKifHelp') });
  area.value = kifText.get(key) ?? '';
  area.addEventListener('input', () => kifText.set(key, area.value));
  const picker = filePicker(t('pickFile'), { class: 'kif-file', accept: '.kif,.kifu,.ki2,.csa,.jkf,.txt' });
  const file = picker.input;
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    // KIF files are often Shift_JIS; the server detects the encoding, so send the bytes' text as UTF-8 only when it is.
    const bytes = new Uint8Array(await f.arrayBuffer());
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('shift_jis').decode(bytes);
    }
    area.value = text;
    kifText.set(key, text);
  });
  const send = h('button', { type: 'button', class: 'small kif-send' }, t('evUploadKif'));
  send.addEventListener('click', () => {
    if (!area.value.trim()) return;
    act(async () => {
      await putBoard(ev.id, r.round, b.board, { kif: area.value });
      kifText.delete(key);
    });
  });
  const details = h(
    'details',
    { class: 'kif-upload' },
    h('summary', {}, b.record ? t('evKifReplace') : t('evUploadKif')),
    area,
    h('div', { class: 'controls' }, picker.element, send),
  );
  details.open = !!kifText.get(key);
  return details;
}

/** "Pair next round" with players sitting out and forced pairs; "Unpair last round". */
export function pairPanel(ev: EventView, act: Act): HTMLElement {
  const st = pairState.get(ev.id) ?? { sitOut: [], forced: [], open: false };
  pairState.set(ev.id, st);
  const active = ev.players.filter((p) => !p.withdrawn);
  const playerOpts = (selected: string) => [
    option('', '—', selected),
    ...active.map((p) => option(String(p.player), `${p.player}. ${p.name}`, selected)),
  ];
  const panel = h('section', { class: 'pair-panel', id: 'pair-panel' });
  const redraw = () => panel.replaceChildren(...content().filter((x): x is HTMLElement => x !== null));
  const content = (): (HTMLElement | null)[] => {
    const swiss = ev.format !== 'round_robin';
    const complete = ev.status === 'finished' || (ev.planned !== null && ev.paired.length >= ev.planned);
    // Sit-outs.
    const sitRows = st.sitOut.map((s, i) => {
      const rm = h('button', { type: 'button', class: 'small' }, '×');
      rm.addEventListener('click', () => {
        st.sitOut.splice(i, 1);
        redraw();
      });
      return h(
        'li',
        { class: 'sit-out-item' },
        `${s.player}. ${active.find((p) => p.player === s.player)?.name ?? ''} — ${pointsText(s.points)}`,
        ' ',
        rm,
      );
    });
    const sitPlayer = h('select', { id: 'sit-player', 'aria-label': t('player') }, playerOpts(''));
    const sitPoints = h(
      'select',
      { id: 'sit-points', 'aria-label': t('points') },
      option('0', '0', '0'),
      option('0.5', '½', '0'),
      option('1', '1', '0'),
    );
    const sitAdd = h('button', { type: 'button', class: 'small', id: 'sit-add' }, t('evAdd'));
    sitAdd.addEventListener('click', () => {
      const n = Number(sitPlayer.value);
      if (!n || st.sitOut.some((s) => s.player === n)) return;
      st.sitOut.push({ player: n, points: Number(sitPoints.value) });
      redraw();
    });
    // Forced pairs.
    const forcedRows = st.forced.map(([a, b], i) => {
      const rm = h('button', { type: 'button', class: 'small' }, '×');
      rm.addEventListener('click', () => {
        st.forced.splice(i, 1);
        redraw();
      });
      return h('li', { class: 'forced-item' }, `${a} – ${b}`, ' ', rm);
    });
    const fa = h('select', { id: 'forced-a', 'aria-label': t('player') }, playerOpts(''));
    const fb = h('select', { id: 'forced-b', 'aria-label': t('player') }, playerOpts(''));
    const fAdd = h('button', { type: 'button', class: 'small', id: 'forced-add' }, t('evAdd'));
    fAdd.addEventListener('click', () => {
      const a = Number(fa.value);
      const b = Number(fb.value);
      if (!a || !b || a === b) return;
      st.forced.push([a, b]);
      redraw();
    });
    const pair = h(
      'button',
      { type: 'button', class: 'primary', id: 'pair-round', disabled: complete },
      t('evPairNext'),
    );
    pair.addEventListener('click', () => {
      pair.disabled = true;
      const req: { sit_out?: { player: number; points: number }[]; forced?: [number, number][] } = {};
      if (st.sitOut.length) req.sit_out = st.sitOut.map((s) => ({ ...s }));
      if (swiss && st.forced.length) req.forced = st.forced.map(([a, b]): [number, number] => [a, b]);
      act(async () => {
        await pairRound(ev.id, req);
        pairState.delete(ev.id);
      });
    });
    const last = ev.paired.length ? ev.paired[ev.paired.length - 1].round : null;
    const unpair = last
      ? h(
          'button',
          { type: 'button', class: 'danger', id: 'unpair-round' },
          t('evUnpairLast').replace('{n}', String(last)),
        )
      : null;
    unpair?.addEventListener('click', () => {
      if (last && confirm(t('evConfirmUnpair').replace('{n}', String(last)))) act(() => unpairRound(ev.id, last));
    });
    const options = complete
      ? null
      : h(
          'details',
          { class: 'pair-options', open: st.open || st.sitOut.length + st.forced.length > 0 },
          h('summary', {}, t('evPairOptions')),
          h(
            'div',
            { class: 'field' },
            h('span', {}, t('evSitOut')),
            h('ul', { class: 'plain' }, sitRows),
            h('div', { class: 'controls' }, sitPlayer, sitPoints, sitAdd),
          ),
          swiss
            ? h(
                'div',
                { class: 'field' },
                h('span', {}, t('evForced')),
                h('ul', { class: 'plain' }, forcedRows),
                h('div', { class: 'controls' }, fa, fb, fAdd),
              )
            : null,
        );
    // The options stay open across the page's refreshes.
    options?.addEventListener('toggle', () => (st.open = options.open));
    return [
      h('h3', {}, complete ? t('evAllPaired') : t('evPairNextRound').replace('{n}', String(ev.paired.length + 1))),
      options,
      h('div', { class: 'controls' }, complete ? null : pair, unpair),
    ];
  };
  redraw();
  return panel;
}

/** The organisers: add a co-organiser (an account), remove one (not the creator). */
export function organisersPanel(ev: EventView, act: Act): HTMLElement {
  const name = h('input', {
    id: 'org-name',
    maxlength: 24,
    'aria-label': t('accountName'),
    placeholder: t('accountName'),
  });
  const add = h('button', { type: 'submit', class: 'small', id: 'org-add' }, t('evAdd'));
  const form = h('form', { class: 'controls', id: 'org-form' }, name, add);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const n = name.value.trim();
    if (n) act(() => addOrganiser(ev.id, n));
  });
  const items = ev.organisers.map((o, i) => {
    const rm = i === 0 ? null : h('button', { type: 'button', class: 'small' }, '×');
    rm?.addEventListener('click', () => act(() => removeOrganiser(ev.id, o)));
    return h('li', {}, h('span', {}, o), ' ', rm);
  });
  return h(
    'details',
    { class: 'organisers-panel', id: 'organisers-panel' },
    h('summary', {}, t('evOrganisers')),
    h('ul', { class: 'plain' }, items),
    form,
  );
}

/** The audit log, fetched when opened. */
export function auditPanel(ev: EventView): HTMLElement {
  const box = h('div', { id: 'audit-log' });
  const details = h('details', { class: 'audit-panel', id: 'audit-panel' }, h('summary', {}, t('evAudit')), box);
  details.addEventListener('toggle', async () => {
    if (!details.open) return;
    box.replaceChildren(h('p', {}, t('connecting')));
    try {
      const entries = await auditLog(ev.id);
      box.replaceChildren(
        scrollBox(
          h(
            'table',
            { class: 'data-table audit-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                [t('date'), t('evBy'), t('evAction')].map((c) => h('th', {}, c)),
              ),
            ),
            h(
              'tbody',
              {},
              entries.map((e) =>
                h(
                  'tr',
                  { class: 'audit-row' },
                  h('td', { class: 'nowrap' }, new Date(e.at_ms).toLocaleString(lang())),
                  h('td', {}, e.by),
                  h('td', { class: 'detail', 'data-action': e.action }, auditText(e)),
                ),
              ),
            ),
          ),
        ),
      );
    } catch (err) {
      box.replaceChildren(h('p', { class: 'error' }, err instanceof Error ? err.message : String(err)));
    }
  });
  return details;
}
