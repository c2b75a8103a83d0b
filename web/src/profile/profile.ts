// A player's profile page `/@/<name>`: ratings per class (rank, provisional
// marker), a rating history chart per class, wins/losses/draws, the
// repertoire (repertoire.ts), the games a page at a time and all of them as
// a ZIP; on one's own profile, the account settings (change the password,
// delete the account).

import { changePassword, deleteAccount, me } from '../accounts/account';
import { ApiError, request } from '../api/api';
import { gameTable, type ArchiveEntry } from '../records/gametable';
import { ratingChart, type RatingPoint } from './ratingchart';
import { RepertoireBox } from './repertoire';
import { h, scrollBox } from '../dom';
import { lang, t } from '../i18n/i18n';
import { renderNotFound } from '../screen';
import { botBadge, rankText, ratingText } from '../accounts/players';
import type { Navigate, Screen } from '../screen';
import { CLASSES, className } from '../rules/timecontrol';
import { gamesBanner } from '../accounts/tournamentbanner';

/** One class's rating of a player. */
interface ClassRating {
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
  rank: string | null;
}

/** `GET /api/players/{name}`. */
export interface Profile {
  name: string;
  created_at_ms: number;
  guest: boolean;
  /** A program's account (it plays over CSA). */
  bot?: boolean;
  rank: string | null;
  ratings: Partial<Record<string, ClassRating>>;
  results: { wins: number; losses: number; draws: number };
  history: Partial<Record<string, (RatingPoint & { rd: number; game: string })[]>>;
}

const PER_PAGE = 20;

/** The classes a profile has ratings or history in, fastest first (unknown classes after). */
export function profileClasses(p: Pick<Profile, 'ratings' | 'history'>): string[] {
  const have = new Set([...Object.keys(p.ratings ?? {}), ...Object.keys(p.history ?? {})]);
  const known = CLASSES.filter((c) => have.has(c));
  return [...known, ...[...have].filter((c) => !(CLASSES as readonly string[]).includes(c)).sort()];
}

/** Opens the profile of `name`, or the not-found screen for an unknown player. */
export async function openProfile(root: HTMLElement, name: string, navigate: Navigate): Promise<Screen> {
  root.replaceChildren(h('p', { class: 'loading' }, t('connecting')));
  let profile: Profile;
  try {
    profile = await request<Profile>('GET', `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return renderNotFound(root, 'player');
    root.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    return { destroy() {}, rerender() {} };
  }
  let page = 1;
  const repertoire = new RepertoireBox(profile.name);
  const gamesBox = h('div', { id: 'profile-games' });
  // One's own profile: "your game is ready" for one's online tournament games.
  const readyBox = h('div', { class: 'ready-box' });
  const ready = me()?.name.toLowerCase() === profile.name.toLowerCase() ? gamesBanner(readyBox, 0) : null;
  const loadGames = async () => {
    try {
      const q = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
      const data = await request<{ total: number; entries: ArchiveEntry[] }>(
        'GET',
        `/api/players/${encodeURIComponent(profile.name)}/games?${q.toString()}`,
      );
      const pages = Math.max(1, Math.ceil(data.total / PER_PAGE));
      const prev = h('button', { type: 'button', id: 'profile-prev', disabled: page <= 1 }, t('pagePrev'));
      const next = h('button', { type: 'button', id: 'profile-next', disabled: page >= pages }, t('pageNext'));
      prev.addEventListener('click', () => {
        page--;
        loadGames();
      });
      next.addEventListener('click', () => {
        page++;
        loadGames();
      });
      gamesBox.replaceChildren(data.entries.length === 0 ? h('p', {}, t('noGames')) : gameTable(data.entries));
      if (data.total > PER_PAGE)
        gamesBox.append(h('div', { class: 'pager' }, prev, h('span', {}, `${t('page')} ${page} / ${pages}`), next));
    } catch (e) {
      gamesBox.replaceChildren(h('p', { class: 'error' }, e instanceof Error ? e.message : String(e)));
    }
  };
  const draw = () => {
    const p = profile;
    const date = (ms: number) => new Date(ms).toLocaleDateString(lang());
    const classes = profileClasses(p);
    const ratingRows = classes.flatMap((c) => {
      const r = p.ratings[c];
      if (!r) return [];
      return h(
        'tr',
        { class: 'rating-row', 'data-class': c },
        h('td', {}, className(c)),
        h('td', { class: 'rating' }, ratingText(r.rating, r.provisional)),
        h('td', {}, rankText(r.rank)),
        h('td', {}, String(r.games)),
        h('td', {}, `±${Math.round(r.rd)}`),
      );
    });
    const charts = classes
      .filter((c) => (p.history[c] ?? []).length > 0)
      .map((c) =>
        h(
          'figure',
          { class: 'rating-history', 'data-class': c },
          h('figcaption', {}, `${t('ratingHistory')}: ${className(c)}`),
          ratingChart(p.history[c] ?? [], date, `${t('ratingHistory')}: ${className(c)}`),
        ),
      );
    const own = me()?.name.toLowerCase() === p.name.toLowerCase();
    const { wins, losses, draws } = p.results;
    root.replaceChildren(
      h(
        'section',
        { class: 'profile', id: 'profile', 'data-name': p.name },
        h(
          'h1',
          { class: 'profile-name' },
          p.name,
          botBadge(p.bot),
          p.rank ? h('span', { class: 'rank' }, ` ${rankText(p.rank)}`) : null,
        ),
        h('p', { class: 'note' }, `${t('memberSince')} ${date(p.created_at_ms)}`),
        readyBox,
        h(
          'p',
          { class: 'results', id: 'profile-results' },
          `${t('wins_n')}: ${wins} · ${t('losses_n')}: ${losses} · ${t('draws_n')}: ${draws}`,
        ),
        h('h2', {}, t('ratings')),
        ratingRows.length === 0
          ? h('p', { class: 'note', id: 'no-ratings' }, t('noRatings'))
          : scrollBox(
              h(
                'table',
                { class: 'ratings-table', id: 'ratings' },
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    [t('ratingClass'), t('rating'), t('rank'), t('gamesCount'), t('deviation')].map((c) =>
                      h('th', {}, c),
                    ),
                  ),
                ),
                h('tbody', {}, ratingRows),
              ),
            ),
        h('p', { class: 'note' }, t('provisionalNote')),
        charts.length ? h('div', { class: 'charts' }, charts) : null,
        repertoire.el,
        h('h2', {}, t('games')),
        h(
          'p',
          {},
          h(
            'a',
            { href: `/api/players/${encodeURIComponent(p.name)}/games.zip`, download: '', id: 'games-zip' },
            t('downloadAllZip'),
          ),
        ),
        gamesBox,
        own ? accountSettings(navigate) : null,
      ),
    );
  };
  draw();
  loadGames();
  return {
    destroy() {
      ready?.destroy();
    },
    rerender() {
      ready?.redraw();
      repertoire.draw();
      draw();
      loadGames();
    },
  };
}

/** Changing the password and deleting the account, on one's own profile. */
function accountSettings(navigate: Navigate): HTMLElement {
  const old = h('input', { type: 'password', id: 'pw-old', autocomplete: 'current-password', required: true });
  const next = h('input', {
    type: 'password',
    id: 'pw-new',
    autocomplete: 'new-password',
    minlength: 8,
    maxlength: 256,
    required: true,
  });
  const pwNote = h('p', { class: 'note', id: 'pw-note', role: 'status' });
  const pwForm = h(
    'form',
    { class: 'account-form', id: 'password-form' },
    h('h3', {}, t('changePassword')),
    h('label', { class: 'field' }, h('span', {}, t('oldPassword')), old),
    h('label', { class: 'field' }, h('span', {}, t('newPassword')), next),
    h('p', { class: 'note' }, t('passwordRules')),
    h('button', { type: 'submit', id: 'pw-submit' }, t('changePassword')),
    pwNote,
  );
  pwForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    pwNote.classList.remove('error');
    try {
      await changePassword(old.value, next.value);
      pwNote.textContent = t('passwordChanged');
      old.value = '';
      next.value = '';
    } catch (err) {
      pwNote.classList.add('error');
      pwNote.textContent = err instanceof Error ? err.message : String(err);
    }
  });
  const pw = h('input', { type: 'password', id: 'delete-password', autocomplete: 'current-password', required: true });
  const delNote = h('p', { class: 'error', id: 'delete-note', role: 'alert' });
  const delForm = h(
    'form',
    { class: 'account-form', id: 'delete-form' },
    h('h3', {}, t('deleteAccount')),
    h('p', { class: 'note' }, t('deleteAccountNote')),
    h('label', { class: 'field' }, h('span', {}, t('password')), pw),
    h('button', { type: 'submit', class: 'danger', id: 'delete-account' }, t('deleteAccount')),
    delNote,
  );
  delForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    delNote.textContent = '';
    if (!confirm(t('confirmDeleteAccount'))) return;
    try {
      await deleteAccount(pw.value);
      navigate('/');
    } catch (err) {
      delNote.textContent = err instanceof Error ? err.message : String(err);
    }
  });
  return h(
    'section',
    { class: 'account-settings', id: 'account-settings' },
    h('h2', {}, t('accountSettings')),
    pwForm,
    delForm,
  );
}
