// Every string the interface shows, in Russian, Ukrainian, English and
// Japanese (one dictionary per language: en.ts, ru.ts, uk.ts, ja.ts), the
// reader's language (remembered, else the browser's) and `t`.

import { type Dict, en } from './en';
import { ja } from './ja';
import { ru } from './ru';
import { uk } from './uk';

export type Lang = 'ru' | 'uk' | 'en' | 'ja';
export const LANGS: Lang[] = ['ru', 'uk', 'en', 'ja'];
export const LANG_NAMES: Record<Lang, string> = { ru: 'Русский', uk: 'Українська', en: 'English', ja: '日本語' };

/** A message key: every language has a text for each. */
export type MsgKey = keyof Dict;

/** One dictionary per language. */
const DICTS: Record<Lang, Dict> = { en, ru, uk, ja };
const STORAGE_KEY = 'shogi.lang';

function detect(): Lang {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && (LANGS as string[]).includes(saved)) return saved as Lang;
  for (const l of navigator.languages ?? [navigator.language]) {
    const base = l.toLowerCase().slice(0, 2);
    if ((LANGS as string[]).includes(base)) return base as Lang;
  }
  return 'en';
}

let current: Lang = detect();

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  localStorage.setItem(STORAGE_KEY, l);
  document.documentElement.lang = l;
}

/** The text of `k` in the current language. */
export function t(k: MsgKey): string {
  return DICTS[current][k];
}

document.documentElement.lang = current;
