// A move the rules refuse, in the reader's language: the server names the
// rule by a code (docs/PROTOCOL.md, "Refused moves"); this is the one place
// that words each code, for the bubble at the square and for an ending by a
// foul ("Gote wins (nifu on file 7)").

import { t, type MsgKey } from '../i18n/i18n';

/** The rule codes the server sends in an `error` and in `status.foul.rule`. */
export const RULE_CODES = [
  'nifu',
  'uchifuzume',
  'self_check',
  'dead_piece',
  'must_promote',
  'cannot_promote',
  'not_reachable',
  'path_blocked',
  'own_piece',
  'no_piece',
  'not_your_piece',
  'not_in_hand',
  'occupied',
] as const;

/** What the server says of a refused move (the fields of its `error`). */
export interface Refusal {
  rule: string;
  square?: string;
  file?: number;
  move?: string;
}

/** A lost game's foul as `status.foul` names it. */
export interface FoulView {
  kind: string;
  move?: string;
  rule?: string;
  file?: number;
  message?: string;
}

function fill(text: string, file: number | undefined): string {
  return text.replace('{file}', file === undefined ? '?' : String(file));
}

/** Why the rules refuse a move ("Nifu: a second pawn on file 5"), or null for a code this client does not know. */
export function ruleText(rule: string, file?: number): string | null {
  if (!(RULE_CODES as readonly string[]).includes(rule)) return null;
  return fill(t(`rule_${rule}` as MsgKey), file);
}

const FOUL_KEYS: Partial<Record<string, MsgKey>> = {
  nifu: 'foul_nifu',
  uchifuzume: 'foul_uchifuzume',
  self_check: 'foul_self_check',
  dead_piece: 'foul_dead_piece',
  must_promote: 'foul_dead_piece',
};

/** The rule an illegal move that lost the game broke, as an ending says it ("nifu on file 7"); "illegal move" for the others. */
export function foulText(foul: FoulView | undefined | null): string {
  const key = foul?.rule ? FOUL_KEYS[foul.rule] : undefined;
  if (!key) return t('reason_illegal_move');
  return fill(t(key), foul?.file);
}
