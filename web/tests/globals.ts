// The few browser globals the client modules read as they load (i18n: the
// saved language in localStorage, the browser's in navigator, the page's
// lang in document), stubbed for the unit tests under node. Imported first.

const store = new Map<string, string>();
globalThis.localStorage ??= {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => store.set(k, String(v)),
  removeItem: (k: string) => store.delete(k),
} as unknown as Storage;
if (!globalThis.navigator) {
  Object.defineProperty(globalThis, 'navigator', { value: { language: 'en-US', languages: ['en-US'] } });
}
globalThis.document ??= { documentElement: {} } as unknown as Document;
