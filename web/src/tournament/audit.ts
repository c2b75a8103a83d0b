// The audit log's entries in the reader's words: the server sends an action
// code and its parameters (docs/PROTOCOL.md, "Tournaments"), worded here per
// action; an unknown action, or an old entry of plain English (`text`), is
// shown as it came.

import { t, type MsgKey } from '../i18n/i18n';
import { HANDICAPS } from '../rules/handicaps';
import type { AuditEntry, BoardResult } from '../api/tournaments';
import { rankText } from '../accounts/players';
import { playText, resultLabel } from './words';

/** The actions worded by one message of their own parameters (`audit_<action>`). */
const PLAIN = [
  'create',
  'settings',
  'add_player',
  'edit_player',
  'withdraw',
  'add_organiser',
  'remove_organiser',
  'unpair_round',
  'invite',
  'decline_invitation',
  'withdraw_invitation',
  'double_forfeit',
] as const;

function fill(text: string, params: Record<string, unknown>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : whole;
  });
}

function handicapText(h: unknown): string {
  return typeof h === 'string' && (HANDICAPS as readonly string[]).includes(h)
    ? t(`hc_${h}` as MsgKey)
    : String(h ?? '');
}

/** One change of a board (`{what: "result", result: "sente"}`) in words. */
function changeText(c: Record<string, unknown>): string {
  switch (c.what) {
    case 'result':
      return c.result ? `${t('result')}: ${resultLabel(c.result as BoardResult)}` : t('audit_result_cleared');
    case 'handicap':
      return fill(t('audit_handicap'), { handicap: handicapText(c.handicap) });
    case 'record':
      return t('audit_record');
    case 'play':
      return playText(String(c.play ?? ''));
    default:
      return JSON.stringify(c);
  }
}

/** What an audit entry records, in the reader's language. */
export function auditText(e: Pick<AuditEntry, 'action' | 'params'>): string {
  const p = e.params ?? {};
  if (typeof p.text === 'string') return `${e.action}: ${p.text}`;
  const action = e.action;
  if ((PLAIN as readonly string[]).includes(action)) return fill(t(`audit_${action}` as MsgKey), p);
  switch (action) {
    case 'pair_round': {
      const parts = [fill(t('audit_pair_round'), p)];
      const byes = Array.isArray(p.byes) ? p.byes : [];
      if (byes.length) parts.push(fill(t('audit_byes'), { players: byes.join(', ') }));
      const forced = Array.isArray(p.forced) ? p.forced : [];
      if (forced.length) {
        const pairs = forced.map((x) => (Array.isArray(x) ? x.join('–') : String(x))).join(', ');
        parts.push(fill(t('audit_forced'), { pairs }));
      }
      return parts.join('; ');
    }
    case 'board': {
      const changes = Array.isArray(p.changes) ? (p.changes as Record<string, unknown>[]) : [];
      const head = fill(t('audit_board'), p);
      return changes.length ? `${head}: ${changes.map(changeText).join(', ')}` : head;
    }
    case 'report':
      return fill(t('audit_report'), { ...p, result: resultLabel(p.result as BoardResult) });
    case 'accept_invitation': {
      const head = fill(t('audit_accept_invitation'), p);
      return typeof p.proposed_rank === 'string'
        ? `${head}; ${fill(t('audit_proposed_rank'), { rank: rankText(p.proposed_rank) })}`
        : head;
    }
    case 'sennichite_replay':
      return fill(t('audit_sennichite_replay'), p);
    default:
      return `${action}: ${JSON.stringify(p)}`;
  }
}
