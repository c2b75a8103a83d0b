// The learn pages' progress: the exercises solved, kept in this browser for
// everyone and, for a logged-in account, on the server too (GET/PUT
// /api/me/learn, docs/PROTOCOL.md). Logging in merges this browser's progress
// into the account; the best scores of the coordinates trainer stay here.

import { me } from '../accounts/account';
import { request } from '../api/api';
import { LESSONS, type Lesson } from './lessons';

const DONE_KEY = 'shogi.learn.done';
const BEST_KEY = 'shogi.learn.coordsBest';

function readDone(): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeDone(done: Set<string>): void {
  localStorage.setItem(DONE_KEY, JSON.stringify([...done].sort()));
}

/** Whether exercise `id` is solved. */
export function isDone(id: string): boolean {
  return readDone().has(id);
}

/** How many of a lesson's exercises are solved. */
export function lessonDone(l: Lesson): number {
  const done = readDone();
  return l.exercises.filter((e) => done.has(e.id)).length;
}

/** The first lesson with an exercise left, or null when the course is done. */
export function nextLesson(): Lesson | null {
  return LESSONS.find((l) => lessonDone(l) < l.exercises.length) ?? null;
}

const KNOWN = new Set(LESSONS.flatMap((l) => l.exercises.map((e) => e.id)));

async function put(ids: string[]): Promise<string[]> {
  const r = await request<{ done: string[] }>('PUT', '/api/me/learn', JSON.stringify({ done: ids }), true);
  return r.done;
}

/** Records exercise `id` as solved (and on the account, when logged in). */
export async function markDone(id: string): Promise<void> {
  const done = readDone();
  done.add(id);
  writeDone(done);
  if (me()) {
    try {
      await put([id]);
    } catch {
      // kept in this browser; the next sync sends it
    }
  }
}

/** For a logged-in account: sends this browser's progress and keeps the union. */
export async function syncProgress(): Promise<void> {
  if (!me()) return;
  const local = [...readDone()].filter((id) => KNOWN.has(id));
  try {
    const all = await put(local);
    writeDone(new Set([...local, ...all]));
  } catch {
    // offline or refused: the local progress stays
  }
}

/** The best score of the coordinates trainer for a notation and orientation. */
export function bestScore(key: string): number {
  try {
    const v = JSON.parse(localStorage.getItem(BEST_KEY) ?? '{}');
    return typeof v[key] === 'number' ? v[key] : 0;
  } catch {
    return 0;
  }
}

/** Keeps `score` if it beats the best; whether it did. */
export function recordScore(key: string, score: number): boolean {
  let v: Record<string, number> = {};
  try {
    v = JSON.parse(localStorage.getItem(BEST_KEY) ?? '{}') ?? {};
  } catch {
    v = {};
  }
  if (score <= (v[key] ?? 0)) return false;
  v[key] = score;
  localStorage.setItem(BEST_KEY, JSON.stringify(v));
  return true;
}
