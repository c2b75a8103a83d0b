// A record's heading in words, as the review page and the import preview
// show it: the two players (a program's with its badge), then the event, the
// day, the clock and the result.

import { botBadge } from '../accounts/players';
import type { TimeControl } from '../api/api';
import { t } from '../i18n/i18n';
import { timeControlText } from '../rules/timecontrol';
import { isoDayText } from './dates';
import { resultText } from './ending';
import type { Strategy } from './strategy';

/** What the heading reads of a record (the record JSON of docs/PROTOCOL.md). */
export interface RecordHead {
  ending: { reason: string | null; winner: 'sente' | 'gote' | null };
  headers: {
    sente: string | null;
    gote: string | null;
    event: string | null;
    start_time: string | null;
    /** The day it was played (`YYYY-MM-DD`), from the header or a game's start. */
    date?: string | null;
    /** The time control, from the header (KIF 持ち時間 in words too) or the game's settings. */
    time?: TimeControl | null;
  };
  /** A game played here by a program's account on that side (absent otherwise). */
  sente_bot?: boolean;
  gote_bot?: boolean;
  /** The strategy tags of the main line (docs/STRATEGY.md). */
  strategy?: Strategy;
}

/** "☗ Alice — ☖ Bob" (a missing name is the side's name). */
export function playersText(rec: RecordHead): string {
  return `☗ ${rec.headers.sente ?? t('sente')} — ☖ ${rec.headers.gote ?? t('gote')}`;
}

/** The players as the review's heading shows them: `playersText` with a badge after a program's name. */
export function playersHeading(rec: RecordHead): (string | HTMLElement)[] {
  const badge = (bot: boolean | undefined) => botBadge(bot) ?? '';
  return [
    `☗ ${rec.headers.sente ?? t('sente')}`,
    badge(rec.sente_bot),
    ` — ☖ ${rec.headers.gote ?? t('gote')}`,
    badge(rec.gote_bot),
  ];
}

/** "Event · 25 Dec 2026 · 30 min + 30 s · Sente wins (resignation)", the parts it has. */
export function factsText(rec: RecordHead): string {
  return [
    rec.headers.event,
    isoDayText(rec.headers.date) ?? rec.headers.start_time,
    rec.headers.time ? timeControlText(rec.headers.time) : null,
    resultText(rec.ending.winner, rec.ending.reason),
  ]
    .filter(Boolean)
    .join(' · ');
}
