// Time controls in words ("30 min + 30 s", "0 + 30 s × 3", "Fischer 3 min + 2 s"),
// the lobby's presets and the names of the rating classes.

import type { TimeControl } from '../api/api';
import { h } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';

/** The lobby's time presets, in the order the seek form offers them ("custom" last). */
export const SEEK_PRESETS: [string, TimeControl][] = [
  ['30+30', { main_ms: 30 * 60000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 }],
  ['10+30', { main_ms: 10 * 60000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 }],
  ['0+30x3', { main_ms: 0, byoyomi_ms: 30000, periods: 3, increment_ms: 0 }],
  ['fischer3+2', { main_ms: 3 * 60000, byoyomi_ms: 0, periods: 1, increment_ms: 2000 }],
];

/** A duration: whole minutes as "30 min", anything else as seconds ("45 s"). */
function duration(ms: number): string {
  if (ms > 0 && ms % 60000 === 0) return t('unitMin').replace('{n}', String(ms / 60000));
  return t('unitSec').replace('{n}', String(Math.round(ms / 100) / 10));
}

/** A time control in words: "30 min + 30 s", "0 + 30 s × 3", "Fischer 3 min + 2 s", "5 min"; "—" without a clock. */
export function timeControlText(tc: TimeControl | null | undefined): string {
  if (!tc) return '—';
  const main = tc.main_ms === 0 ? '0' : duration(tc.main_ms);
  if (tc.increment_ms > 0) return `${t('fischer')} ${main} + ${duration(tc.increment_ms)}`;
  if (tc.byoyomi_ms > 0) {
    const periods = tc.periods > 1 ? ` × ${tc.periods}` : '';
    return `${main} + ${duration(tc.byoyomi_ms)}${periods}`;
  }
  return main;
}

/** The rating classes, fastest first. */
export const CLASSES = ['bullet', 'blitz', 'rapid', 'classical'] as const;
export type TimeClass = (typeof CLASSES)[number];

/** A rating class's name in the reader's language. */
export function className(c: string): string {
  return (CLASSES as readonly string[]).includes(c) ? t(`class_${c}` as MsgKey) : c;
}

/** The numbers of a custom clock as a form keeps them. */
export interface CustomTime {
  mainMin: number;
  byoSec: number;
  periods: number;
  incSec: number;
}

/** The custom clock's numbers as a time control (at least one period). */
export function customTime(f: CustomTime): TimeControl {
  return {
    main_ms: Math.round(f.mainMin * 60000),
    byoyomi_ms: Math.round(f.byoSec * 1000),
    periods: Math.max(1, Math.round(f.periods)),
    increment_ms: Math.round(f.incSec * 1000),
  };
}

/** The time control a form with the lobby's presets chose: the preset named `time`, else its custom clock. */
export function seekTime(f: CustomTime & { time: string }): TimeControl {
  const preset = SEEK_PRESETS.find(([k]) => k === f.time);
  return preset ? preset[1] : customTime(f);
}

/**
 * The custom clock's four number fields (main minutes, byoyomi seconds,
 * periods, increment seconds), editing `form` as they are typed; `attrs`
 * names each input (its `name` or `id`).
 */
export function customTimeFields(
  form: CustomTime,
  attrs: (key: keyof CustomTime) => Record<string, string>,
): HTMLElement {
  const num = (key: keyof CustomTime, min: number, max: number) => {
    const i = h('input', { type: 'number', ...attrs(key), min, max, step: 1, value: String(form[key]) });
    i.addEventListener('input', () => (form[key] = Number(i.value) || 0));
    return i;
  };
  const field = (label: string, control: HTMLElement) => h('label', { class: 'field' }, h('span', {}, label), control);
  return h(
    'div',
    { class: 'custom-time' },
    field(t('mainMinutes'), num('mainMin', 0, 1440)),
    field(t('byoyomiSeconds'), num('byoSec', 0, 3600)),
    field(t('periods'), num('periods', 1, 10)),
    field(t('incrementSeconds'), num('incSec', 0, 3600)),
  );
}
