// The moderators' page `/admin` (docs/PROTOCOL.md, "Moderation"): find an
// account and disable or re-enable it (administrators also set roles),
// annul a game's rating effect, read the players' reports (hide a reported
// chat message, close a report) and the log of every moderator's action.
// Every action asks for a reason. Names, reasons and chat text are put in
// as text, never as HTML.

import { me, moderates } from '../accounts/account';
import { profilePath } from '../accounts/players';
import { ApiError, request } from '../api/api';
import { h, scrollBox } from '../dom';
import { lang, type MsgKey, t } from '../i18n/i18n';
import type { Screen } from '../screen';

/** An account as `GET /api/admin/accounts` lists it. */
interface AccountRow {
  name: string;
  role: 'player' | 'moderator' | 'admin';
  disabled: boolean;
  created_at_ms: number;
}

/** A report as `GET /api/admin/reports` lists it. */
interface ReportRow {
  id: number;
  reporter: string;
  game: string;
  chat?: { n: number; from: string; text: string };
  reason: string;
  at_ms: number;
  closed: boolean;
  closed_by?: string;
}

/** A line of `GET /api/admin/log`. */
interface LogRow {
  moderator: string;
  action: string;
  target: string;
  reason: string;
  at_ms: number;
}

const ROLES = ['player', 'moderator', 'admin'] as const;
const ACTIONS = ['disable', 'enable', 'role', 'annul', 'hide_chat', 'close_report'] as const;

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return body === undefined ? request(method, path) : request(method, path, JSON.stringify(body), true);
}

function when(ms: number): string {
  return new Intl.DateTimeFormat(lang(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
}

function errorText(e: unknown): string {
  return e instanceof ApiError ? e.message : String(e);
}

/** A text field for the reason of an action. */
function reasonField(id: string): HTMLInputElement {
  return h('input', {
    type: 'text',
    id,
    class: 'adm-reason',
    maxlength: 500,
    'aria-label': t('admReason'),
    placeholder: t('admReason'),
  });
}

/** Opens the moderators' page (a notice for anyone else). */
export function openAdmin(root: HTMLElement): Screen {
  let accounts: AccountRow[] = [];
  let query = '';
  let openOnly = true;
  const status = h('p', { class: 'adm-status', id: 'adm-status', role: 'status' });
  const accountsBox = h('div', { id: 'adm-accounts' });
  const reportsBox = h('div', { id: 'adm-reports' });
  const logBox = h('div', { id: 'adm-log' });
  let destroyed = false;

  const say = (text: string) => {
    status.textContent = text;
  };

  /** Runs a moderator's action with the reason in `field`, then reloads what it changed. */
  const act = async (field: HTMLInputElement, run: (reason: string) => Promise<string | undefined>) => {
    const reason = field.value.trim();
    if (!reason) {
      say(t('admReasonNeeded'));
      field.focus();
      return;
    }
    try {
      say((await run(reason)) ?? t('admDone'));
      await Promise.all([loadAccounts(), loadReports(), loadLog()]);
    } catch (e) {
      say(errorText(e));
    }
  };

  const loadAccounts = async () => {
    if (!query) {
      drawAccounts();
      return;
    }
    const data = await call<{ accounts: AccountRow[] }>('GET', `/api/admin/accounts?q=${encodeURIComponent(query)}`);
    accounts = data.accounts;
    drawAccounts();
  };

  const drawAccounts = () => {
    if (!query) {
      accountsBox.replaceChildren();
      return;
    }
    if (accounts.length === 0) {
      accountsBox.replaceChildren(h('p', {}, t('admNone')));
      return;
    }
    const admin = me()?.admin === true || me()?.role === 'admin';
    const rows = accounts.map((a) => {
      const reason = reasonField(`adm-reason-${a.name}`);
      const path = `/api/admin/accounts/${encodeURIComponent(a.name)}`;
      const toggle = h(
        'button',
        { type: 'button', class: a.disabled ? 'adm-enable' : 'adm-disable' },
        a.disabled ? t('admEnable') : t('admDisable'),
      );
      toggle.addEventListener('click', () =>
        act(reason, async (r) => {
          await call('POST', `${path}/${a.disabled ? 'enable' : 'disable'}`, { reason: r });
          return undefined;
        }),
      );
      const actions: (HTMLElement | string)[] = [reason, toggle];
      if (admin) {
        const select = h(
          'select',
          { 'aria-label': t('admRole'), class: 'adm-role' },
          ROLES.map((r) => h('option', { value: r, selected: r === a.role }, t(`admRole_${r}` as MsgKey))),
        );
        const set = h('button', { type: 'button', class: 'adm-set-role' }, t('admSetRole'));
        set.addEventListener('click', () =>
          act(reason, async (r) => {
            await call('PUT', `${path}/role`, { role: select.value, reason: r });
            return undefined;
          }),
        );
        actions.push(select, set);
      }
      return h(
        'tr',
        { 'data-name': a.name },
        h('td', {}, h('a', { href: profilePath(a.name), 'data-link': true }, a.name)),
        h('td', {}, t(`admRole_${a.role}` as MsgKey)),
        h('td', { class: a.disabled ? 'adm-off' : 'adm-on' }, a.disabled ? t('admDisabled') : t('admActive')),
        h('td', {}, when(a.created_at_ms)),
        h('td', { class: 'adm-actions' }, ...actions),
      );
    });
    accountsBox.replaceChildren(
      scrollBox(
        h(
          'table',
          { class: 'adm-table' },
          h(
            'thead',
            {},
            h('tr', {}, ...[t('admName'), t('admRole'), t('admState'), t('admCreated'), ''].map((c) => h('th', {}, c))),
          ),
          h('tbody', {}, ...rows),
        ),
      ),
    );
  };

  const loadReports = async () => {
    const data = await call<{ reports: ReportRow[] }>('GET', `/api/admin/reports${openOnly ? '?open=1' : ''}`);
    if (destroyed) return;
    if (data.reports.length === 0) {
      reportsBox.replaceChildren(h('p', {}, t('admNoReports')));
      return;
    }
    reportsBox.replaceChildren(
      h(
        'ul',
        { class: 'adm-report-list' },
        ...data.reports.map((r) => {
          const reason = reasonField(`adm-report-reason-${r.id}`);
          const about = h(
            'span',
            { class: 'adm-about' },
            h('a', { href: `/g/${r.game}`, 'data-link': true }, `${t('admGameLink')} ${r.game}`),
            r.chat ? ` · ${t('admMessageBy').replace('{n}', String(r.chat.n)).replace('{name}', r.chat.from)}: ` : '',
            r.chat ? h('q', { class: 'adm-chat-text' }, r.chat.text) : '',
          );
          const actions: HTMLElement[] = [];
          if (!r.closed) {
            const chat = r.chat;
            if (chat) {
              const hide = h('button', { type: 'button', class: 'adm-hide' }, t('admHide'));
              hide.addEventListener('click', () =>
                act(reason, async (why) => {
                  await call('POST', `/api/admin/games/${r.game}/chat/${chat.n}/hide`, { reason: why });
                  return undefined;
                }),
              );
              actions.push(hide);
            }
            const close = h('button', { type: 'button', class: 'adm-close' }, t('admClose'));
            close.addEventListener('click', () =>
              act(reason, async (why) => {
                await call('POST', `/api/admin/reports/${r.id}/close`, { reason: why });
                return undefined;
              }),
            );
            actions.push(close);
          }
          return h(
            'li',
            { class: `adm-report${r.closed ? ' closed' : ''}`, 'data-report': r.id },
            h('div', {}, `${when(r.at_ms)} · ${t('admReporter')}: ${r.reporter}`),
            h('div', {}, about),
            h('div', { class: 'adm-report-reason' }, `${t('admReason')}: ${r.reason}`),
            r.closed
              ? h('div', { class: 'adm-closed' }, t('admClosedBy').replace('{name}', r.closed_by ?? ''))
              : h('div', { class: 'adm-actions' }, reason, ...actions),
          );
        }),
      ),
    );
  };

  const loadLog = async () => {
    const data = await call<{ log: LogRow[] }>('GET', '/api/admin/log');
    if (destroyed) return;
    if (data.log.length === 0) {
      logBox.replaceChildren(h('p', {}, t('admLogEmpty')));
      return;
    }
    const action = (a: string) => ((ACTIONS as readonly string[]).includes(a) ? t(`admAction_${a}` as MsgKey) : a);
    // A role change's target is "name: role" (the role's key): the role in the reader's words.
    const target = (l: LogRow) => {
      const i = l.target.lastIndexOf(': ');
      const role = l.target.slice(i + 2);
      if (l.action !== 'role' || i < 0 || !(ROLES as readonly string[]).includes(role)) return l.target;
      return `${l.target.slice(0, i)}: ${t(`admRole_${role}` as MsgKey)}`;
    };
    logBox.replaceChildren(
      scrollBox(
        h(
          'table',
          { class: 'adm-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...[t('admWhen'), t('admWho'), t('admWhat'), t('admTarget'), t('admReason')].map((c) => h('th', {}, c)),
            ),
          ),
          h(
            'tbody',
            {},
            ...data.log.map((l) =>
              h(
                'tr',
                {},
                h('td', {}, when(l.at_ms)),
                h('td', {}, l.moderator),
                h('td', {}, action(l.action)),
                h('td', {}, target(l)),
                h('td', {}, l.reason),
              ),
            ),
          ),
        ),
      ),
    );
  };

  const draw = () => {
    if (!moderates(me())) {
      root.replaceChildren(h('section', { class: 'admin' }, h('p', { id: 'adm-only' }, t('admOnly'))));
      return;
    }
    const q = h('input', {
      type: 'search',
      id: 'adm-q',
      value: query,
      'aria-label': t('admFindLabel'),
      placeholder: t('admFindLabel'),
    });
    const find = h(
      'form',
      { class: 'row', id: 'adm-find' },
      q,
      h('button', { type: 'submit', id: 'adm-find-go' }, t('admFind')),
    );
    find.addEventListener('submit', (e) => {
      e.preventDefault();
      query = q.value.trim();
      loadAccounts().catch((err) => say(errorText(err)));
    });
    const game = h('input', {
      type: 'text',
      id: 'adm-game',
      'aria-label': t('admGameId'),
      placeholder: t('admGameId'),
    });
    const gameReason = reasonField('adm-game-reason');
    const annul = h('button', { type: 'button', id: 'adm-annul' }, t('admAnnul'));
    annul.addEventListener('click', () =>
      act(gameReason, async (why) => {
        const id = game.value.match(/[0-9a-f]{16}/)?.[0] ?? game.value.trim();
        const done = await call<{ ratings_changed: string[] }>(
          'POST',
          `/api/admin/games/${encodeURIComponent(id)}/annul`,
          {
            reason: why,
          },
        );
        return t('admAnnulled').replace('{names}', done.ratings_changed.join(', '));
      }),
    );
    const only = h('input', { type: 'checkbox', id: 'adm-open-only', checked: openOnly });
    only.addEventListener('change', () => {
      openOnly = only.checked;
      loadReports().catch((err) => say(errorText(err)));
    });
    root.replaceChildren(
      h(
        'section',
        { class: 'admin', id: 'admin' },
        h('h2', {}, t('admTitle')),
        status,
        h('h3', {}, t('admAccounts')),
        find,
        accountsBox,
        h('h3', {}, t('admGames')),
        h('div', { class: 'row adm-game' }, game, gameReason, annul),
        h('h3', {}, t('admReports')),
        h('label', { class: 'check' }, only, t('admOpenOnly')),
        reportsBox,
        h('h3', {}, t('admLog')),
        logBox,
      ),
    );
    drawAccounts();
    Promise.all([loadReports(), loadLog()]).catch((err) => say(errorText(err)));
  };

  draw();
  return {
    destroy() {
      destroyed = true;
    },
    rerender: draw,
  };
}
