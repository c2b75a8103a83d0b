// Every word in the reader's language: each page opened in Russian and in
// Ukrainian must not show a string of the English dictionary that the
// language translates (visible text, placeholders, titles, labels and the
// options of every select). Run last, when the other scenarios have made
// games, an imported record, accounts and events to show. A key missing in
// a language is a compile error (every dictionary is typed by the English
// one), so `npm run build` is the other half of this check.

import type { Browser, Page } from 'playwright-core';

import { en } from '../src/i18n/en';
import { ru } from '../src/i18n/ru';
import { uk } from '../src/i18n/uk';
import { api, BASE, check, createFromStartScreen, fetchRetry, newPage, test } from './e2e-harness';

type Dict = Record<string, string>;

/**
 * The English strings a reader of `dict` must never see: every English
 * value the language translates, less templates (`{n}`) and any string
 * that is also a value of the language itself ("OK", "SFEN").
 */
export function englishOnly(dict: Dict): Set<string> {
  const own = new Set(Object.values(dict).map((v) => v.trim()));
  const out = new Set<string>();
  for (const [key, value] of Object.entries(en as Dict)) {
    const text = value.trim();
    if (text.length < 3 || text.includes('{') || own.has(text) || dict[key]?.trim() === text) continue;
    out.add(text);
  }
  return out;
}

/** The texts a person sees or hears on the page: visible text nodes, placeholders, titles, labels, options. */
async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element | null) => !!el && (el as HTMLElement).checkVisibility?.() !== false;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      if (text && visible(n.parentElement)) out.push(text);
    }
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label], option')) {
      for (const attr of ['placeholder', 'title', 'aria-label']) {
        const v = el.getAttribute(attr)?.trim();
        if (v) out.push(v);
      }
      if (el.tagName === 'OPTION' && el.textContent?.trim()) out.push(el.textContent.trim());
    }
    return out;
  });
}

/** The pages to read: the fixed ones, and a game, a review, an event and a profile the other tests left. */
async function pagesToRead(browser: Browser): Promise<string[]> {
  const pages = ['/', '/learn', '/learn/board', '/learn/coordinates', '/puzzles', '/analysis', '/analysis?edit'];
  pages.push('/archive', '/import', '/t');
  const { context, page } = await newPage(browser, 'ru-RU');
  await createFromStartScreen(page, { mode: 'ai' });
  pages.push(new URL(page.url()).pathname);
  await context.close();
  const imported = await fetchRetry(`${BASE}/api/import?save=1`, {
    method: 'POST',
    body: 'V2.2\nN+Sakura\nN-Kaede\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n',
  }).then((r) => r.json());
  pages.push(`/review/${imported.id}`);
  const events = (await api('/api/tournaments')).events as { id: string }[];
  if (events[0]) pages.push(`/t/${events[0].id}`, `/t/${events[0].id}/crosstable`);
  // A profile: the first player of the archive who has an account.
  const entries = (await api('/api/archive?per_page=100')).entries as { sente: string | null; gote: string | null }[];
  for (const name of entries.flatMap((e) => [e.sente, e.gote])) {
    if (!name) continue;
    const r = await fetchRetry(`${BASE}/api/players/${encodeURIComponent(name)}`);
    if (r.ok) {
      pages.push(`/@/${encodeURIComponent(name)}`);
      break;
    }
  }
  return pages;
}

/** Runs the check. */
export async function i18nScenarios(browser: Browser): Promise<void> {
  await test('every page in Russian and Ukrainian shows no string of the English dictionary', async () => {
    const paths = await pagesToRead(browser);
    check(paths.length >= 12, `pages to read: ${paths.join(' ')}`);
    // The check can fail: the same reading of the start page in English finds the strings it looks for.
    const control = await newPage(browser, 'en-US');
    await control.page.goto(`${BASE}/`);
    await control.page.waitForLoadState('networkidle');
    const inEnglish = (await shownTexts(control.page)).filter((text) => englishOnly(ru as Dict).has(text));
    check(inEnglish.length >= 10, `the English start page shows the dictionary's strings: ${inEnglish.length}`);
    await control.context.close();
    const found: string[] = [];
    for (const [locale, dict] of [
      ['ru-RU', ru],
      ['uk-UA', uk],
    ] as const) {
      const english = englishOnly(dict as Dict);
      const { context, page } = await newPage(browser, locale);
      for (const path of paths) {
        await page.goto(BASE + path);
        await page.waitForLoadState('networkidle');
        for (const text of await shownTexts(page)) {
          if (english.has(text)) found.push(`${locale} ${path}: "${text}"`);
        }
      }
      await context.close();
    }
    check(found.length === 0, `English on Russian and Ukrainian pages:\n  ${[...new Set(found)].join('\n  ')}`);
  });
}
