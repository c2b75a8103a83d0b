// The handicaps a new game can be given (the server's names; the words are
// `hc_<name>` in i18n) and the side choices, worded for a handicap game.

import { t } from '../i18n/i18n';

/** The handicaps, from none to the largest. */
export const HANDICAPS = [
  'even',
  'lance',
  'right-lance',
  'bishop',
  'rook',
  'rook-lance',
  '2',
  '3',
  '4',
  '5',
  'left-5',
  '6',
  'left-7',
  'right-7',
  '8',
  '10',
];

/**
 * The side choices in words. In a handicap game the giver (uwate) plays Gote and
 * moves first, the taker (shitate) plays Sente; the labels say so.
 */
export function sideOptions(handicap: string): [string, string][] {
  const even = handicap === 'even';
  return [
    ['sente', t(even ? 'sideSente' : 'sideSenteHandicap')],
    ['gote', t(even ? 'sideGote' : 'sideGoteHandicap')],
    ['random', t('sideRandom')],
  ];
}
