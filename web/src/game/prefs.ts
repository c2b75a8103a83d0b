// The game screen's preferences (notation, piece set, coordinates), kept in
// localStorage, and the settings panel that changes them.

import { defaultNotation } from '../board/movetext';
import { rankLabelsSelect } from '../board/ranklabels';
import { NOTATIONS, type Notation } from '../board/notation';
import { h, option } from '../dom';
import { type MsgKey, t } from '../i18n/i18n';

export type PieceSet = 'kanji' | 'intl';

export interface Prefs {
  notation: Notation;
  pieces: PieceSet;
  coords: boolean;
}

const PREFS_KEY = 'shogi.prefs';

export function loadPrefs(): Prefs {
  const defaults: Prefs = {
    notation: defaultNotation(),
    pieces: 'kanji',
    coords: true,
  };
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as Partial<Prefs>;
    return { ...defaults, ...saved };
  } catch {
    return defaults;
  }
}

function savePrefs(p: Prefs): void {
  localStorage.setItem(PREFS_KEY, JSON.stringify(p));
}

const NOTATION_LABEL: Record<Notation, MsgKey> = {
  japanese: 'notJapanese',
  western: 'notWestern',
  russian: 'notRussian',
  usi: 'notUsi',
};

/** The piece set and the coordinates as classes of the board's column. */
export function applyPrefsClasses(el: HTMLElement, prefs: Prefs): void {
  el.classList.toggle('pieces-kanji', prefs.pieces === 'kanji');
  el.classList.toggle('pieces-intl', prefs.pieces === 'intl');
  el.classList.toggle('no-coords', !prefs.coords);
}

/** What a change in the settings panel changed: one of `prefs`, or the rank labels of every board. */
export type PrefChange = keyof Prefs | 'ranks';

/** The settings panel: each change is saved (in `prefs`, or for every board), then `changed` says which. */
export function settingsPanel(prefs: Prefs, changed: (what: PrefChange) => void): HTMLElement {
  const notation = h(
    'select',
    { id: 'notation' },
    NOTATIONS.map((n) => option(n, t(NOTATION_LABEL[n]), prefs.notation)),
  );
  notation.addEventListener('change', () => {
    prefs.notation = notation.value as Notation;
    savePrefs(prefs);
    changed('notation');
  });
  const pieces = h(
    'select',
    { id: 'piece-set' },
    option('kanji', t('kanji'), prefs.pieces),
    option('intl', t('international'), prefs.pieces),
  );
  pieces.addEventListener('change', () => {
    prefs.pieces = pieces.value as PieceSet;
    savePrefs(prefs);
    changed('pieces');
  });
  const coords = h('input', { type: 'checkbox', id: 'coords', checked: prefs.coords });
  coords.addEventListener('change', () => {
    prefs.coords = coords.checked;
    savePrefs(prefs);
    changed('coords');
  });
  const ranks = rankLabelsSelect(() => changed('ranks'));
  return h(
    'div',
    { class: 'settings' },
    h('label', { class: 'field' }, h('span', {}, t('notation')), notation),
    h('label', { class: 'field' }, h('span', {}, t('pieceSet')), pieces),
    h('label', { class: 'field' }, h('span', {}, t('rankLabels')), ranks),
    h('label', { class: 'check' }, coords, t('coordinates')),
  );
}
