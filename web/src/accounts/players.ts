// How a player is shown: name, rating (with `?` while provisional), amateur
// rank in the reader's language, "(guest)" for guests; the computer by its
// level in the reader's language ("Компьютер, уровень 3" for the server's
// "AI 3"); a program's account (it plays over CSA) with a small badge
// beside its name.

import type { PlayerView } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';

/** A rating as shown: `1623`, or `1500?` while provisional; empty without one. */
export function ratingText(rating: number | null | undefined, provisional: boolean): string {
  if (rating === null || rating === undefined || !Number.isFinite(rating)) return '';
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/**
 * An amateur rank in the reader's language: `1d` (or `1 dan`) → "1 dan",
 * "初段"; `3k` (or `3 kyu`) → "3 kyu", "3級". Anything else is shown as it came.
 */
export function rankText(rank: string | null | undefined): string {
  if (!rank) return '';
  const m = rank.trim().match(/^(\d{1,2})\s*(d|dan|k|kyu)$/i);
  if (!m) return rank;
  const n = Number(m[1]);
  if (m[2].toLowerCase().startsWith('d')) {
    const numerals = t('danNumerals').split(' ');
    return t('rankDan').replace('{n}', numerals[n - 1] ?? String(n));
  }
  return t('rankKyu').replace('{n}', String(n));
}

/** What follows a player's name: "1623 · 1 dan", "1500? · 2 kyu", "(guest)", or nothing (the computer). */
export function playerDetail(p: PlayerView): string {
  if (p.computer) return '';
  if (p.guest) return t('guestMark');
  return [ratingText(p.rating, p.provisional), rankText(p.rank)].filter(Boolean).join(' · ');
}

/** A rating change with its sign: `+12`, `−12` (a real minus sign), `±0`. */
export function signedDelta(delta: number): string {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return '±0';
}

/** A player's name as shown: the computer ("AI 3" on the wire) as "Computer, level 3" in the reader's language. */
export function playerName(p: PlayerView): string {
  const level = p.computer ? p.name.match(/(\d+)$/)?.[1] : undefined;
  return level ? t('computerLevel').replace('{n}', level) : p.name;
}

/** A player on one line: "Алиса 1623 · 1 dan", "Гость (guest)", "Computer, level 3". */
export function playerText(p: PlayerView): string {
  const d = playerDetail(p);
  return d ? `${playerName(p)} ${d}` : playerName(p);
}

/**
 * The word of the badge beside a program's name ("program", "программа"),
 * given the `bot` flag the server sends; empty for everyone else.
 */
export function botMark(bot: boolean | null | undefined): string {
  return bot === true ? t('botMark') : '';
}

/** The badge shown beside a program's name wherever it is shown (given its `bot` flag), or `null` for everyone else. */
export function botBadge(bot: boolean | null | undefined): HTMLElement | null {
  const word = botMark(bot);
  return word ? h('span', { class: 'bot-badge', title: t('botTitle') }, word) : null;
}

/** The address of an account's profile page (`/@/Алиса`). */
export function profilePath(name: string): string {
  return `/@/${encodeURIComponent(name)}`;
}

/** Whether a player has a profile page: an account, not a guest or the computer. */
export function hasProfile(p: PlayerView | null | undefined): boolean {
  return !!p && !p.guest && !p.computer && p.name !== 'deleted';
}
