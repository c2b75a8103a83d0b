// What every screen of the app gives the router.

/** A screen shown in the page's main area. */
export interface Screen {
  /** Removes the screen's listeners, timers and board before another screen takes its place. */
  destroy(): void;
  /** Draws the screen again in the current language. */
  rerender(): void;
}

/** Goes to another screen of the app by its path (`/review/<id>`). */
export type Navigate = (path: string) => void;
