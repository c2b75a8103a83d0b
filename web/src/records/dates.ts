// The day a game was played in words, one format per language across the
// archive and the review: en `5 Jan 2024`, ru `5 янв. 2024 г.`,
// uk `5 січ. 2024 р.`, ja `2024年1月5日`. Days are UTC days (the server
// sends a record's header date as midnight UTC, a game's start as its instant).

import { lang, type Lang } from '../i18n/i18n';

/** The locale each language writes dates in (British English: day before month). */
const LOCALE: Record<Lang, string> = { en: 'en-GB', ru: 'ru-RU', uk: 'uk-UA', ja: 'ja-JP' };

/** The day of Unix milliseconds `ms` (UTC) in `l`'s words (default: the UI language). */
export function dayText(ms: number, l: Lang = lang()): string {
  if (!Number.isFinite(ms)) return '—';
  return new Intl.DateTimeFormat(LOCALE[l], {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(ms));
}

/** The day of an ISO date `YYYY-MM-DD` (the record JSON's `headers.date`) in words; null for anything else. */
export function isoDayText(iso: string | null | undefined, l: Lang = lang()): string | null {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  if (!m) return null;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayText(d.getTime(), l);
}

/** The twelve months' names in `l`'s words, as a month stands alone (ru `ноябрь`, uk `листопад`, ja `11月`). */
export function monthNames(l: Lang = lang()): string[] {
  const f = new Intl.DateTimeFormat(LOCALE[l], { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => f.format(new Date(Date.UTC(2000, m, 1))));
}
