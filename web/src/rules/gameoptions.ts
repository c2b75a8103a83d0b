// The clock and rules of a new game, as the start screen's form asks for
// them; the review board's "continue from here" asks with the same fields.

import type { CreateRequest, TimeControl } from '../api/api';
import { h, option } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';
import { customTime, customTimeFields } from './timecontrol';

/** The clock and rules chosen in a form. */
export interface ClockRules {
  /** A preset (`30+30`, `10+30`, `0+30`, `fischer`, `none`) or `custom`. */
  time: string;
  mainMin: number;
  byoSec: number;
  periods: number;
  incSec: number;
  impasse: string;
  illegal: 'prevent' | 'lose';
  maxMoves: number;
}

/** A new game's clock and rules until the player changes them: 10 min + 30 s, rule 27, illegal moves prevented, no move limit. */
export const DEFAULT_CLOCK_RULES: Readonly<ClockRules> = {
  time: '10+30',
  mainMin: 10,
  byoSec: 30,
  periods: 1,
  incSec: 0,
  impasse: '27',
  illegal: 'prevent',
  maxMoves: 0,
};

const PRESETS: Record<string, TimeControl | null> = {
  '30+30': { main_ms: 30 * 60000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 },
  '10+30': { main_ms: 10 * 60000, byoyomi_ms: 30000, periods: 1, increment_ms: 0 },
  '0+30': { main_ms: 0, byoyomi_ms: 30000, periods: 1, increment_ms: 0 },
  fischer: { main_ms: 3 * 60000, byoyomi_ms: 0, periods: 1, increment_ms: 2000 },
  none: null,
};
const PRESET_LABELS: [string, MsgKey][] = [
  ['30+30', 'tc30'],
  ['10+30', 'tc10'],
  ['0+30', 'tc0'],
  ['fischer', 'tcFischer'],
  ['custom', 'tcCustom'],
  ['none', 'tcNone'],
];

/** The time control and rules of the request `f` describes. */
export function clockRulesRequest(f: ClockRules): Pick<CreateRequest, 'time' | 'rules'> {
  const time = f.time === 'custom' ? customTime(f) : (PRESETS[f.time] ?? null);
  return {
    time,
    rules: { impasse: f.impasse, illegal: f.illegal, max_moves: f.maxMoves > 0 ? Math.round(f.maxMoves) : null },
  };
}

/** A labelled form field. */
export function field(label: string, control: HTMLElement, cls = ''): HTMLElement {
  return h('label', { class: `field ${cls}` }, h('span', {}, label), control);
}

/**
 * The fields that edit `f` in place: the time control (with the custom
 * clock's numbers when "custom" is picked) and the rules (impasse, illegal
 * moves, move limit). Inputs are named after `f`'s fields.
 */
export function clockRulesFields(f: ClockRules): HTMLElement[] {
  const set = (name: keyof ClockRules, v: string) => {
    (f as unknown as Record<string, unknown>)[name] = typeof f[name] === 'number' ? Number(v) || 0 : v;
  };
  const select = (name: keyof ClockRules, opts: [string, string][], after?: () => void) => {
    const s = h(
      'select',
      { name },
      opts.map(([v, l]) => option(v, l, String(f[name]))),
    );
    s.addEventListener('change', () => {
      set(name, s.value);
      after?.();
    });
    return s;
  };
  const num = (name: keyof ClockRules, min: number, max: number) => {
    const i = h('input', { type: 'number', name, min, max, step: 1, value: String(f[name]) });
    i.addEventListener('input', () => set(name, i.value));
    return i;
  };
  const custom = customTimeFields(f, (key) => ({ name: key }));
  custom.hidden = f.time !== 'custom';
  return [
    field(
      t('timeControl'),
      select(
        'time',
        PRESET_LABELS.map(([v, k]) => [v, t(k)]),
        () => (custom.hidden = f.time !== 'custom'),
      ),
    ),
    custom,
    h(
      'fieldset',
      {},
      h('legend', {}, t('rules')),
      field(
        t('impasseRule'),
        select('impasse', [
          ['count24', t('impCount24')],
          ['27', t('imp27')],
          ['24', t('imp24')],
          ['try', t('impTry')],
          ['none', t('impNone')],
        ]),
      ),
      field(
        t('illegalMoves'),
        select('illegal', [
          ['prevent', t('illegalPrevent')],
          ['lose', t('illegalLose')],
        ]),
      ),
      field(t('maxMoves'), num('maxMoves', 0, 10000)),
    ),
  ];
}
