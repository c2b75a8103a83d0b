// The game screen's buttons and what they depend on: flip, resign, abort,
// takeback (proposed, accepted, declined), the impasse declaration or count,
// and the impasse panel that says the rule, the points and how a declaration
// becomes possible.

import type { GameState } from '../api/api';
import { h } from '../dom';
import { lang, type MsgKey, t } from '../i18n/i18n';
import type { ClientMessage } from './socket';
import { declarationWins, type LiveGame } from './state';

/** A button of the game screen. */
export function button(label: string, id: string, onclick: () => void, cls = ''): HTMLButtonElement {
  return h('button', { type: 'button', id, class: cls, onclick: () => onclick() }, label);
}

/** Two words of a sentence: Japanese needs no space between them. */
export function words(a: string, b: string): string {
  return lang() === 'ja' ? a + b : `${a} ${b}`;
}

/** The buttons for the seat: flip for everyone; resign, abort, takeback and the impasse's for a player. */
export function controls(game: LiveGame, send: (msg: ClientMessage) => void, flip: () => void): HTMLElement {
  const div = h('div', { class: 'controls' });
  const s = game.st;
  const you = game.you;
  if (!s) return div;
  div.append(button(t('flip'), 'flip', () => flip()));
  if (!you || s.status.over) return div;
  const mine = you === 'both' || you === s.side_to_move;
  const bothSeated = s.seats.sente && s.seats.gote;
  if (bothSeated) {
    div.append(
      button(
        t('resign'),
        'resign',
        () => {
          if (confirm(t('confirmResign'))) send({ type: 'resign' });
        },
        'danger',
      ),
    );
  }
  // Abort: before each side has made a move.
  if (bothSeated && s.moves.length < 2) {
    div.append(button(t('abort'), 'abort', () => send({ type: 'abort' })));
  }
  if (game.canProposeTakeback()) {
    div.append(button(t('takeback'), 'takeback', () => send({ type: 'takeback' })));
  }
  const rule = s.impasse.rule;
  // Declaring is offered only when the conditions are met (a false declaration loses);
  // highlighted when the points win too.
  if ((rule === '27' || rule === '24') && mine && bothSeated && s.impasse.can_declare) {
    div.append(
      button(
        t('declare'),
        'declare',
        () => {
          if (confirm(t('confirmDeclare'))) send({ type: 'declare' });
        },
        declarationWins(s) ? 'primary' : '',
      ),
    );
  }
  if (rule === 'count24' && bothSeated) {
    const by = s.impasse.count_proposed_by;
    if (by === null && s.impasse.can_propose_count) {
      div.append(button(t('proposeCount'), 'propose-count', () => send({ type: 'propose_count' })));
    }
    if (by !== null && (you === 'both' || you !== by)) {
      div.append(
        button(t('acceptCount'), 'accept-count', () => send({ type: 'accept_count' }), 'primary'),
        button(t('declineCount'), 'decline-count', () => send({ type: 'decline_count' })),
      );
    }
  }
  return div;
}

/** A proposed takeback: "waiting" for the proposer, Accept / Decline for the other player. */
export function takebackPanel(game: LiveGame, send: (msg: ClientMessage) => void): HTMLElement | null {
  const s = game.st;
  const by = s?.takeback?.proposed_by ?? null;
  if (!s || s.status.over || by === null || !game.you) return null;
  if (game.you === by) return h('div', { class: 'takeback note', id: 'takeback-state' }, t('takebackProposed'));
  return h(
    'div',
    { class: 'takeback', id: 'takeback-state' },
    h('p', {}, t('takebackAsked')),
    h(
      'div',
      { class: 'controls' },
      button(t('accept'), 'accept-takeback', () => send({ type: 'accept_takeback' }), 'primary'),
      button(t('decline'), 'decline-takeback', () => send({ type: 'decline_takeback' })),
    ),
  );
}

/** The impasse rule, the points, and how the declaration or the count becomes possible. */
export function impassePanel(s: GameState): HTMLElement {
  const imp = s.impasse;
  const ruleKey: Record<string, MsgKey> = {
    count24: 'impCount24',
    '27': 'imp27',
    '24': 'imp24',
    try: 'impTry',
    none: 'impNone',
  };
  const div = h(
    'div',
    { class: 'impasse', id: 'impasse' },
    h('div', {}, `${t('impasseRule')}: ${t(ruleKey[imp.rule] ?? 'impNone')}`),
  );
  if (imp.rule === 'count24' || imp.rule === '27' || imp.rule === '24') {
    div.append(h('div', { class: 'points' }, `${t('points')}: ☗ ${imp.sente_points} · ☖ ${imp.gote_points}`));
  }
  // How the declaration or the count becomes possible, while it is not.
  const condition: Partial<Record<string, MsgKey>> = {
    '27': 'impasseCond27',
    '24': 'impasseCond24',
    count24: 'impasseCondCount',
  };
  const cond = condition[imp.rule];
  const possible = imp.rule === 'count24' ? imp.can_propose_count || imp.count_proposed_by !== null : imp.can_declare;
  if (cond && !possible && !s.status.over)
    div.append(h('p', { class: 'note impasse-conditions', id: 'impasse-conditions' }, t(cond)));
  if (imp.count_proposed_by && !s.status.over)
    div.append(h('div', { class: 'proposal' }, words(t('countProposedBy'), t(imp.count_proposed_by))));
  return div;
}
