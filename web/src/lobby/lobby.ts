// The lobby on the start screen: a form to post a seek (an open challenge,
// or one addressed to a player), the open seeks with "Accept" (or "Cancel"
// for one's own), and the games in progress to watch. Kept live by the
// lobby's WebSocket; when this browser's seek is accepted it opens the game.
// One's own games lead the games in progress. On a phone the lists come
// before the forms (styles/players.css).

import { guestNameToSend, me } from '../accounts/account';
import { guestNameField } from '../accounts/accountbar';
import { savedToken, saveToken, type PlayerView } from '../api/api';
import { h, option, scrollBox } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';
import {
  acceptSeek,
  cancelSeek,
  connectLobby,
  forgetSeek,
  postSeek,
  pruneSeeks,
  seekToken,
  type LiveGame,
  type LobbyMessage,
  type Seek,
} from '../api/lobby';
import { botBadge, hasProfile, playerText, profilePath } from '../accounts/players';
import type { Navigate, Screen } from '../screen';
import { HANDICAPS, sideOptions } from '../rules/handicaps';
import { gamesBanner } from '../accounts/tournamentbanner';
import { invitationsBanner } from '../accounts/invitations';
import { className, customTimeFields, SEEK_PRESETS, seekTime, timeControlText } from '../rules/timecontrol';

interface SeekForm {
  time: string;
  mainMin: number;
  byoSec: number;
  periods: number;
  incSec: number;
  rated: boolean;
  side: 'sente' | 'gote' | 'random';
  handicap: string;
  to: string;
}

const form: SeekForm = {
  time: '30+30',
  mainMin: 15,
  byoSec: 30,
  periods: 1,
  incSec: 0,
  rated: true,
  side: 'random',
  handicap: 'even',
  to: '',
};

/** Whether a seek is this browser's or this account's own. */
function mine(s: Seek): boolean {
  const m = me();
  return seekToken(s.id) !== null || (!!m && !s.by.guest && s.by.name.toLowerCase() === m.name.toLowerCase());
}

/** A player's name (a link to the profile for accounts) and rating. */
function playerCell(p: PlayerView | null, cls: string): HTMLElement {
  if (!p) return h('span', { class: cls }, '—');
  const name = hasProfile(p) ? h('a', { href: profilePath(p.name), 'data-link': true }, p.name) : h('span', {}, p.name);
  const rest = playerText(p).slice(p.name.length);
  return h('span', { class: cls }, name, botBadge(p.bot), rest);
}

function sideText(side: string): string {
  return side === 'sente' ? `☗ ${t('sente')}` : side === 'gote' ? `☖ ${t('gote')}` : t('sideRandom');
}

/** Draws the lobby into `root` and keeps it live until destroyed. */
export function renderLobby(root: HTMLElement, navigate: Navigate): Screen {
  let seeks: Seek[] = [];
  let live: LiveGame[] = [];
  let liveTotal = 0;
  let connected = true;
  let loaded = false;
  const formBox = h('div', { class: 'seek-form-box' });
  const seekBox = h('div', { id: 'seek-list-box' });
  const liveBox = h('div', { id: 'live-list-box' });
  const statusEl = h('p', { class: 'warn', id: 'lobby-status' });
  // "Your game is ready": one's online tournament games, fetched every 10 s.
  const readyBox = h('div', { class: 'ready-box' });
  const ready = gamesBanner(readyBox, 10000);
  // "You are invited to ...": one's pending invitations to events, with Accept and Decline.
  const invitedBox = h('div', { class: 'ready-box' });
  const invited = invitationsBanner(invitedBox, 10000);

  const drawForm = () => {
    const error = h('p', { class: 'error', id: 'seek-error', role: 'alert' });
    const guest = !me();
    const unratable = guest || form.handicap !== 'even';
    const [sente, gote, random] = sideOptions(form.handicap);
    const rated = form.rated && !unratable;
    const select = (name: string, opts: [string, string, boolean?][], value: string, onChange: (v: string) => void) => {
      const s = h('select', { name, id: name });
      for (const [v, l, disabled] of opts) {
        const o = option(v, l, value);
        o.disabled = !!disabled;
        s.append(o);
      }
      s.addEventListener('change', () => onChange(s.value));
      return s;
    };
    const field = (label: string, control: HTMLElement) =>
      h('label', { class: 'field' }, h('span', {}, label), control);
    const custom = customTimeFields(form, (key) => ({ name: `seek-${key}` }));
    custom.hidden = form.time !== 'custom';
    const to = h('input', {
      name: 'seek-to',
      id: 'seek-to',
      value: form.to,
      maxlength: 24,
      placeholder: t('optional'),
    });
    to.addEventListener('input', () => (form.to = to.value));
    const submit = h('button', { type: 'submit', class: 'primary', id: 'seek-submit' }, t('postSeek'));
    const f = h(
      'form',
      { class: 'seek-form', id: 'seek-form' },
      h('h2', {}, t('lobby')),
      h(
        'div',
        { class: 'seek-grid' },
        field(
          t('timeControl'),
          select(
            'seek-time',
            [...SEEK_PRESETS.map(([k, tc]): [string, string] => [k, timeControlText(tc)]), ['custom', t('tcCustom')]],
            form.time,
            (v) => {
              form.time = v;
              custom.hidden = v !== 'custom';
            },
          ),
        ),
        field(
          t('ratedOrCasual'),
          select(
            'seek-rated',
            [
              ['rated', t('rated'), unratable],
              ['casual', t('casual')],
            ],
            rated ? 'rated' : 'casual',
            (v) => (form.rated = v === 'rated'),
          ),
        ),
        field(
          t('yourSide'),
          select('seek-side', [random, sente, gote], form.side, (v) => (form.side = v as SeekForm['side'])),
        ),
        field(
          t('handicap'),
          select(
            'seek-handicap',
            HANDICAPS.map((hc): [string, string] => [hc, t(`hc_${hc}` as MsgKey)]),
            form.handicap,
            (v) => {
              form.handicap = v;
              drawForm();
            },
          ),
        ),
      ),
      custom,
      form.handicap !== 'even' ? h('p', { class: 'note', id: 'seek-handicap-note' }, t('handicapNote')) : null,
      guest
        ? h('p', { class: 'note', id: 'rated-hint' }, t('ratedNeedsAccount'))
        : form.handicap !== 'even'
          ? h('p', { class: 'note' }, t('handicapUnrated'))
          : h('p', { class: 'note', id: 'rated-rules' }, t('ratedRules')),
      field(t('challengePlayer'), to),
      guestNameField('seek-guest-name'),
      submit,
      error,
    );
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      error.textContent = '';
      try {
        await postSeek({
          time: seekTime(form),
          rated: form.rated && !!me() && form.handicap === 'even',
          side: form.side,
          handicap: form.handicap,
          to: form.to.trim() || null,
          name: guestNameToSend() ?? null,
        });
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
      }
      submit.disabled = false;
    });
    formBox.replaceChildren(f);
  };

  const actionError = h('p', { class: 'error', id: 'lobby-error', role: 'alert' });
  const drawSeeks = () => {
    const m = me();
    const rows = seeks.map((s) => {
      const own = mine(s);
      const forOther = !own && !!s.to && (!m || s.to.toLowerCase() !== m.name.toLowerCase());
      let action: HTMLElement | null = null;
      if (own) {
        action = h('button', { type: 'button', class: 'seek-cancel' }, t('cancel'));
        action.addEventListener('click', async () => {
          actionError.textContent = '';
          try {
            await cancelSeek(s.id);
            seeks = seeks.filter((x) => x.id !== s.id);
            drawSeeks();
          } catch (err) {
            actionError.textContent = err instanceof Error ? err.message : String(err);
          }
        });
      } else if (!forOther) {
        const b = h('button', { type: 'button', class: 'seek-accept primary', disabled: s.rated && !m }, t('accept'));
        if (s.rated && !m) b.title = t('ratedNeedsAccount');
        b.addEventListener('click', async () => {
          actionError.textContent = '';
          b.disabled = true;
          // A program answers over the CSA protocol: the wait is said.
          if (s.by.bot) b.textContent = t('waitingForProgram');
          try {
            const r = await acceptSeek(s.id, guestNameToSend());
            saveToken(r.game, r.token);
            navigate(`/g/${r.game}`);
          } catch (err) {
            actionError.textContent = err instanceof Error ? err.message : String(err);
            b.textContent = t('accept');
            b.disabled = false;
          }
        });
        action = b;
      }
      return h(
        'tr',
        { class: `seek-row${own ? ' own' : ''}`, 'data-id': s.id },
        h('td', {}, playerCell(s.by, 'seek-by')),
        h(
          'td',
          {},
          timeControlText(s.time),
          s.class ? h('span', { class: 'tag' }, ` ${className(s.class)}`) : null,
          s.game ? h('span', { class: 'tag seek-game', title: t('csaGameName') }, ` ${s.game}`) : null,
        ),
        h('td', {}, s.rated ? t('rated') : t('casual')),
        h('td', {}, sideText(s.side)),
        h('td', {}, s.handicap === 'even' ? '' : (t(`hc_${s.handicap}` as MsgKey) ?? s.handicap)),
        h('td', {}, s.to ? h('span', { class: 'seek-to' }, `→ ${s.to}`) : null, action),
      );
    });
    seekBox.replaceChildren(
      h('h3', {}, t('openSeeks')),
      !loaded
        ? h('p', {}, t('connecting'))
        : seeks.length === 0
          ? h('p', { class: 'note', id: 'no-seeks' }, t('noSeeks'))
          : scrollBox(
              h(
                'table',
                { class: 'lobby-table', id: 'seek-list' },
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    [t('player'), t('timeControl'), '', t('seekerSide'), t('handicap'), ''].map((c) => h('th', {}, c)),
                  ),
                ),
                h('tbody', {}, rows),
              ),
            ),
      actionError,
    );
  };

  const drawLive = () => {
    // One's own games first (this browser holds a seat, or the account plays), marked.
    const m = me();
    const plays = (p: PlayerView | null) => !!m && !!p && !p.guest && p.name.toLowerCase() === m.name.toLowerCase();
    const own = (g: LiveGame) => savedToken(g.id) !== null || plays(g.players.sente) || plays(g.players.gote);
    const items = [...live.filter(own), ...live.filter((g) => !own(g))].map((g) =>
      h(
        'li',
        { class: `live-row${own(g) ? ' own' : ''}`, 'data-id': g.id },
        h(
          'a',
          { href: `/g/${g.id}`, 'data-link': true, class: 'live-link' },
          `☗ ${g.players.sente ? playerText(g.players.sente) : t('sente')} — ☖ ${g.players.gote ? playerText(g.players.gote) : t('gote')}`,
        ),
        h(
          'span',
          { class: 'live-info' },
          [timeControlText(g.time), g.rated ? t('rated') : t('casual'), `${t('moveNumber')} ${g.moves + 1}`].join(
            ' · ',
          ),
        ),
      ),
    );
    liveBox.replaceChildren(
      h('h3', {}, `${t('liveGames')}${liveTotal > 0 ? ` (${liveTotal})` : ''}`),
      live.length === 0
        ? h('p', { class: 'note', id: 'no-live' }, t('noLiveGames'))
        : h('ul', { class: 'live-list', id: 'live-list' }, items),
    );
  };

  const onMessage = (msg: LobbyMessage) => {
    switch (msg.type) {
      case 'lobby':
        loaded = true;
        seeks = msg.seeks;
        live = msg.live;
        liveTotal = msg.live_total;
        pruneSeeks(seeks);
        drawSeeks();
        drawLive();
        break;
      case 'seek_added':
        seeks = [...seeks.filter((s) => s.id !== msg.seek.id), msg.seek];
        drawSeeks();
        break;
      case 'seek_removed':
        seeks = seeks.filter((s) => s.id !== msg.id);
        forgetSeek(msg.id);
        drawSeeks();
        break;
      case 'seek_accepted': {
        seeks = seeks.filter((s) => s.id !== msg.id);
        const token = seekToken(msg.id);
        forgetSeek(msg.id);
        if (token) {
          saveToken(msg.game, token);
          navigate(`/g/${msg.game}`);
          return;
        }
        drawSeeks();
        break;
      }
      case 'live':
        live = msg.live;
        liveTotal = msg.live_total;
        drawLive();
        break;
      case 'live_moves':
        live = live.map((g) => (g.id in msg.moves ? { ...g, moves: msg.moves[g.id] } : g));
        liveTotal = msg.live_total;
        drawLive();
        break;
    }
  };

  const draw = () => {
    drawForm();
    drawSeeks();
    drawLive();
    statusEl.textContent = connected ? '' : t('reconnecting');
    ready.redraw();
    invited.redraw();
    root.replaceChildren(
      h('section', { class: 'lobby', id: 'lobby' }, readyBox, invitedBox, formBox, statusEl, seekBox, liveBox),
    );
  };
  draw();
  const conn = connectLobby(onMessage, (ok) => {
    connected = ok;
    statusEl.textContent = ok ? '' : t('reconnecting');
  });
  return {
    destroy: () => {
      conn.close();
      ready.destroy();
      invited.destroy();
    },
    rerender: draw,
  };
}
