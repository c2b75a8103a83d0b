// Reporting a game, or one chat message of it, to the moderators
// (`POST /api/reports`, docs/PROTOCOL.md "Moderation"): a small form with a
// reason, opened from the game page's links or a chat line's flag. Logged-in
// players only; the server limits reports per account.

import { ApiError, request } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';

/** The longest reason the server takes. */
const REASON_MAX = 500;

/**
 * A form reporting game `game` (and chat message `chat`, if given), shown in
 * place of `anchor`'s next sibling; it removes itself when sent or cancelled.
 */
export function reportForm(game: string, chat: number | null, onDone: () => void): HTMLElement {
  const reason = h('textarea', {
    id: 'report-reason',
    maxlength: REASON_MAX,
    rows: 2,
    'aria-label': t('reportReason'),
    placeholder: t('reportReason'),
  });
  const status = h('p', { class: 'report-status', id: 'report-status', role: 'status' });
  const send = h('button', { type: 'submit', id: 'report-send' }, t('reportSend'));
  const cancel = h('button', { type: 'button', id: 'report-cancel' }, t('cancel'));
  const form = h(
    'form',
    { class: 'report-form', id: 'report-form' },
    h('p', { class: 'report-what' }, chat === null ? t('reportGame') : t('reportMessage')),
    reason,
    h('div', { class: 'row' }, send, cancel),
    status,
  );
  cancel.addEventListener('click', () => {
    form.remove();
    onDone();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = reason.value.trim();
    if (!text) {
      status.textContent = t('reportReason');
      return;
    }
    send.disabled = true;
    try {
      const body = chat === null ? { game, reason: text } : { game, chat, reason: text };
      await request('POST', '/api/reports', JSON.stringify(body), true);
      form.replaceChildren(h('p', { class: 'report-status', id: 'report-status', role: 'status' }, t('reportSent')));
    } catch (err) {
      status.textContent = err instanceof ApiError ? err.message : String(err);
      send.disabled = false;
    }
  });
  queueMicrotask(() => reason.focus());
  return form;
}
