// What the server refused, in the reader's language. Every error answer
// (HTTP and WebSocket) carries a `code` and the code's parameters beside its
// English words (docs/PROTOCOL.md, "Errors"); this is the one place that
// words each code. A code this client does not know shows the server's
// English words, after a "The server refused" in the reader's language.

import { t, type MsgKey } from '../i18n/i18n';
import { HANDICAPS } from '../rules/handicaps';
import { ruleText } from '../rules/refusal';

/** The fields of an error answer: `code`, its parameters, and the English words (`error` over HTTP, `message` over the WebSocket). */
export type ServerError = Record<string, unknown> & { code?: unknown; error?: unknown; message?: unknown };

/** Codes worded by one message with `{param}` placeholders (the message key is `err_<code>`). */
const PLAIN = [
  'no_such_game',
  'no_such_route',
  'method_not_allowed',
  'internal',
  'too_many_requests',
  'seat_taken',
  'wrong_invite',
  'not_a_seat',
  'not_logged_in',
  'wrong_login',
  'wrong_password',
  'name_taken',
  'name_too_like',
  'cross_origin',
  'empty_record',
  'game_in_progress',
  'analysis_busy',
  'own_challenge',
  'not_your_challenge',
  'program_declined',
  'organisers_only',
  'registration_closed',
  'already_entered',
  'already_invited',
  'event_full',
  'board_has_result',
  'solution_after_attempt',
  'account_disabled',
  'moderators_only',
  'admins_only',
  'not_rated',
  'bad_sfen',
  'bad_rank',
  'record_too_large',
  // Over the WebSocket.
  'game_over',
  'waiting_for_opponent',
  'not_your_turn',
  'not_your_declaration',
  'no_declaration',
  'no_count',
  'count_not_possible',
  'count_already_proposed',
  'no_count_proposed',
  'own_proposal',
  'not_stored',
  'too_late_to_abort',
  'rated_takeback',
  'no_takebacks',
  'nothing_to_take_back',
  'takeback_already_proposed',
  'no_takeback_proposed',
  'no_chat',
  'chat_length',
  'chat_too_fast',
  'game_gone',
  'too_many_messages',
  'bad_message',
  'spectator',
] as const;

/** What `no_such` may name. */
const THINGS = [
  'player',
  'challenge',
  'tournament',
  'round',
  'board',
  'record',
  'account',
  'organiser',
  'invitation',
  'puzzle',
  'message',
  'report',
] as const;

/** What a name or password rule (`bad_length`, `bad_character`) is about. */
const WHATS: Record<string, MsgKey> = {
  name: 'what_name',
  'guest name': 'what_guest_name',
  password: 'what_password',
  reason: 'what_reason',
};

/** The record reader's reasons (`unreadable_record`). */
const REASONS = [
  'unknown_format',
  'bad_move',
  'bad_board',
  'bad_hand',
  'bad_variation',
  'illegal_position',
  'bad_sfen',
  'bad_jkf',
  'unexpected_line',
  'no_record',
  'unknown_handicap',
  'several_records',
] as const;

/** A record reader's reason (`bad_move`...) in the reader's language, or null for another word. */
export function recordReasonText(reason: unknown): string | null {
  return has(REASONS, reason) ? t(`rec_${reason}` as MsgKey) : null;
}

function has<T extends string>(list: readonly T[], x: unknown): x is T {
  return typeof x === 'string' && (list as readonly string[]).includes(x);
}

/** `text` with each `{name}` replaced by the parameter of that name. */
function fill(text: string, params: Record<string, unknown>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : whole;
  });
}

/** The server's English words of an error answer, or `fallback`. */
function english(e: ServerError, fallback: string): string {
  if (typeof e.error === 'string') return e.error;
  if (typeof e.message === 'string') return e.message;
  return fallback;
}

/**
 * An error answer in the reader's language: its `code` worded with its
 * parameters, or for a code this client does not word, "The server
 * refused: " and the English words (`fallback` when there are none).
 */
export function problemText(e: ServerError, fallback = ''): string {
  const code = e.code;
  if (has(PLAIN, code)) return fill(t(`err_${code}` as MsgKey), e);
  if (code === 'no_such') {
    return has(THINGS, e.what) ? t(`err_no_such_${e.what}` as MsgKey) : t('err_no_such_thing');
  }
  if (code === 'bad_length' || code === 'bad_character' || code === 'mixed_scripts') {
    const what = typeof e.what === 'string' && WHATS[e.what] ? t(WHATS[e.what]) : String(e.what ?? '');
    const text = fill(t(`err_${code}`), { ...e, what });
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  if (code === 'unreadable_record') {
    const reason = recordReasonText(e.reason) ?? english(e, fallback);
    const at = typeof e.line === 'number' && e.line > 0 ? fill(t('err_at_line'), e) : '';
    const token = typeof e.token === 'string' && e.token !== '' ? ` «${e.token}»` : '';
    return `${at}${reason}${token}`;
  }
  if (code === 'illegal_record_move') {
    const rule = typeof e.rule === 'string' ? ruleText(e.rule) : null;
    return fill(t('err_illegal_record_move'), e) + (rule ? `: ${rule}` : '');
  }
  if (code === 'wrong_start') {
    const known = typeof e.handicap === 'string' && (HANDICAPS as readonly string[]).includes(e.handicap);
    return fill(t('err_wrong_start'), { handicap: known ? t(`hc_${e.handicap}` as MsgKey) : e.handicap });
  }
  if (code === 'not_legal_here') {
    const rule = typeof e.rule === 'string' ? ruleText(e.rule) : null;
    return fill(t('err_not_legal_here'), { move: e.move }) + (rule ? `: ${rule}` : '');
  }
  const words = english(e, fallback);
  return words ? `${t('err_refused')}: ${words}` : t('err_refused');
}
