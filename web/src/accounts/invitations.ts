// "You are invited to <event> by <organiser>": the logged-in player's
// pending invitations to events (`GET /api/me/invitations`), each with
// Accept (and an optional proposed rank) and Decline, shown on the start
// screen. An account enters an event only by joining or by accepting here.

import { h } from '../dom';
import { t } from '../i18n/i18n';
import { acceptInvitation, declineInvitation, myInvitations, type MyInvitation } from '../api/tournaments';
import { timeControlText } from '../rules/timecontrol';
import { type Polled, polled } from './polled';

/** The line of one invitation: "You are invited to Кубок by Алиса". */
export function invitationText(i: MyInvitation): string {
  return t('invLine').replace('{event}', i.name).replace('{by}', i.by);
}

/** Fills `box` with the invitations (empty when none or nobody is logged in); `everyMs` > 0 keeps it fresh. */
export function invitationsBanner(box: HTMLElement, everyMs: number): Polled {
  let error = '';
  /** Proposed ranks typed, per event, kept while the banner redraws. */
  const ranks = new Map<string, string>();
  const answer = async (f: () => Promise<unknown>) => {
    error = '';
    try {
      await f();
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    await banner.reload();
  };
  const item = (i: MyInvitation) => {
    const rank = h('input', {
      class: 'invitation-rank',
      maxlength: 12,
      placeholder: t('rankPlaceholder'),
      'aria-label': t('invRank'),
      value: ranks.get(i.tournament) ?? '',
    });
    rank.addEventListener('input', () => ranks.set(i.tournament, rank.value));
    const accept = h('button', { type: 'button', class: 'small primary invitation-accept' }, t('invAccept'));
    const decline = h('button', { type: 'button', class: 'small invitation-decline' }, t('invDecline'));
    accept.addEventListener('click', () => {
      accept.disabled = true;
      answer(() => acceptInvitation(i.tournament, rank.value));
    });
    decline.addEventListener('click', () => {
      decline.disabled = true;
      answer(() => declineInvitation(i.tournament));
    });
    const facts = [
      timeControlText(i.time),
      i.rated ? t('rated') : t('casual'),
      i.play === 'otb' ? t('invOverBoard') : t('invOnline'),
    ].join(' · ');
    return h(
      'li',
      { class: 'invitation', 'data-event': i.tournament },
      h('a', { href: `/t/${i.tournament}`, 'data-link': true, class: 'invitation-text' }, invitationText(i)),
      ' ',
      h('span', { class: 'note' }, `(${facts})`),
      ' ',
      h('label', { class: 'inline' }, h('span', {}, t('invRank')), ' ', rank),
      ' ',
      accept,
      ' ',
      decline,
    );
  };
  const draw = (invitations: MyInvitation[]) => {
    if (invitations.length === 0 && !error) {
      box.replaceChildren();
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(
      h(
        'div',
        { class: 'ready-banner', id: 'invitations', role: 'status' },
        h('strong', {}, t('invTitle')),
        h('ul', {}, invitations.map(item)),
        error ? h('p', { class: 'error', role: 'alert' }, error) : null,
      ),
    );
  };
  box.hidden = true;
  // Not while the player types a rank.
  const banner = polled(myInvitations, draw, everyMs, () => !box.contains(document.activeElement));
  return banner;
}
