// A start-screen box filled from the server for the logged-in account and
// kept fresh while the page is visible: the ready games of one's events and
// one's invitations share it.

import { me } from './account';

/** A polled box: stop it, draw it again (a language switch), or fetch now. */
export interface Polled {
  destroy(): void;
  redraw(): void;
  reload(): Promise<void>;
}

/**
 * Keeps what `fetch` answers for the logged-in account (nothing when nobody
 * is logged in or the fetch fails) and has `draw` show it. With `everyMs` > 0
 * it fetches again that often while the page is visible and `idle()` says the
 * player is not busy in the box (typing, say).
 *
 * # Examples
 *
 * ```ts
 * const box = polled(myEventGames, (games) => show(games), 10000);
 * ```
 */
export function polled<T>(
  fetch: () => Promise<T[]>,
  draw: (items: T[]) => void,
  everyMs: number,
  idle: () => boolean = () => true,
): Polled {
  let items: T[] = [];
  let stopped = false;
  const reload = async () => {
    if (stopped) return;
    if (me()) {
      try {
        items = await fetch();
      } catch {
        items = [];
      }
    } else {
      items = [];
    }
    if (!stopped) draw(items);
  };
  reload();
  const timer =
    everyMs > 0
      ? window.setInterval(() => {
          if (document.visibilityState === 'visible' && idle()) reload();
        }, everyMs)
      : undefined;
  return {
    destroy() {
      stopped = true;
      window.clearInterval(timer);
    },
    redraw: () => draw(items),
    reload,
  };
}
