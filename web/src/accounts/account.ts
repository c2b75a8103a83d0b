// The account of this browser (the session cookie is the server's business):
// who is logged in, logging in and out, registering, the password, and a
// guest's remembered display name (docs/PROTOCOL.md, "Players").

import { ApiError, request } from '../api/api';

/** A logged-in account (`GET /api/me`). */
export interface Me {
  name: string;
  admin: boolean;
  /** `player`, `moderator` or `admin` (older servers send only `admin`). */
  role?: 'player' | 'moderator' | 'admin';
}

/** Whether `m` may use the moderators' page. */
export function moderates(m: Me | null): boolean {
  return m !== null && (m.admin || m.role === 'moderator' || m.role === 'admin');
}

let current: Me | null = null;
let known = false;
const listeners = new Set<() => void>();

function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return body === undefined ? request(method, path) : request(method, path, JSON.stringify(body), true);
}

function set(me: Me | null): void {
  current = me;
  known = true;
  for (const l of listeners) l();
}

/** The logged-in account, or `null` for a guest (also before {@link loadMe} answered). */
export function me(): Me | null {
  return current;
}

/** Whether the server has said who this is yet. */
export function meKnown(): boolean {
  return known;
}

/** Calls `f` whenever someone logs in or out; returns the function that stops it. */
export function onAccountChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Asks the server who this browser is logged in as (a guest on `401` or any failure). */
export async function loadMe(): Promise<Me | null> {
  try {
    set(await call<Me>('GET', '/api/me'));
  } catch {
    set(null);
  }
  return current;
}

/**
 * Asks again who this browser is, when something suggests the session may
 * have ended (a moderator disabled the account, say): only a definite `401`
 * logs the page out; a network failure keeps the account as it was.
 */
export async function recheckMe(): Promise<void> {
  if (!current) return;
  try {
    set(await call<Me>('GET', '/api/me'));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) set(null);
  }
}

/** Registers an account and logs in as it. */
export async function register(name: string, password: string): Promise<Me> {
  const m = await call<Me>('POST', '/api/account', { name, password });
  set(m);
  return m;
}

/** Logs in. */
export async function login(name: string, password: string): Promise<Me> {
  const m = await call<Me>('POST', '/api/session', { name, password });
  set(m);
  return m;
}

/** Logs out (the server clears the cookie). */
export async function logout(): Promise<void> {
  try {
    await call<null>('DELETE', '/api/session');
  } finally {
    set(null);
  }
}

/** Changes the password; this browser stays logged in (with a new cookie), every other session ends. */
export async function changePassword(old: string, next: string): Promise<void> {
  await call<null>('PUT', '/api/account/password', { old, new: next });
}

/** Deletes the account (its games stay, the seat named `deleted`) and logs out. */
export async function deleteAccount(password: string): Promise<void> {
  await call<null>('DELETE', '/api/account', { password });
  set(null);
}

/** Whether an error is the server refusing for too many attempts (`429`). */
export function tooMany(e: unknown): boolean {
  return e instanceof ApiError && e.status === 429;
}

// A guest's display name, remembered for the next game.
const GUEST_NAME = 'shogi.guestName';

/** The display name this guest typed last time ("" if none). */
export function guestName(): string {
  return localStorage.getItem(GUEST_NAME) ?? '';
}

/** Remembers a guest's display name (an empty one forgets it). */
export function setGuestName(name: string): void {
  const n = name.trim();
  if (n) localStorage.setItem(GUEST_NAME, n);
  else localStorage.removeItem(GUEST_NAME);
}

/** The `name` to send with a request: the guest's name, or nothing when logged in or unnamed. */
export function guestNameToSend(): string | undefined {
  if (current) return undefined;
  return guestName() || undefined;
}
