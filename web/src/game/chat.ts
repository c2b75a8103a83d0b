// The chat of a game's two players: the lines so far, a box to write in
// (200 characters at most), and a switch to hide it (remembered). Text is
// always put in as text, never as HTML. A logged-in player may report the
// opponent's line (a flag beside it); a line a moderator hid says so.

import { me } from '../accounts/account';
import type { ChatMessage, Side } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { reportForm } from './report';

const HIDDEN_KEY = 'shogi.chat.hidden';
/** The longest line the server takes. */
export const CHAT_MAX = 200;
/** The lines kept on screen (the server sends the last 50 on connect). */
const KEEP = 200;

/** The chat panel of one game, kept across the game screen's redraws. */
export class ChatPanel {
  readonly el = h('div', { class: 'chat', id: 'chat' });
  private messages: ChatMessage[] = [];
  private hidden = localStorage.getItem(HIDDEN_KEY) === '1';
  private list = h('div', { class: 'chat-lines', id: 'chat-lines', role: 'log', 'aria-live': 'polite' });
  private input = h('input', { id: 'chat-input', maxlength: CHAT_MAX, autocomplete: 'off' });

  private report = h('div', { class: 'chat-report' });

  /** `send` hands a line to the game's socket and says whether it went; `game` is the game's id. */
  constructor(
    private you: Side,
    private send: (text: string) => boolean,
    private game: string,
  ) {
    this.draw();
  }

  /** New lines (`history` false) or the game's last lines on connect (`history` true, replacing the list); a hidden line replaces the one with its number. */
  add(msgs: ChatMessage[], history: boolean): void {
    if (history) this.messages = [];
    for (const m of msgs) {
      const at = m.n === undefined ? -1 : this.messages.findIndex((x) => x.n === m.n);
      if (at >= 0) this.messages[at] = { ...this.messages[at], ...m, text: m.hidden ? undefined : m.text };
      else this.messages.push(m);
    }
    if (this.messages.length > KEEP) this.messages = this.messages.slice(-KEEP);
    this.drawLines();
  }

  /** Draws the panel again (a language change); the half-written line stays. */
  draw(): void {
    const toggle = h('input', { type: 'checkbox', id: 'chat-toggle', checked: !this.hidden });
    toggle.addEventListener('change', () => {
      this.hidden = !toggle.checked;
      localStorage.setItem(HIDDEN_KEY, this.hidden ? '1' : '0');
      this.draw();
    });
    this.input.placeholder = t('chatPlaceholder');
    this.input.setAttribute('aria-label', t('chat'));
    const form = h(
      'form',
      { class: 'chat-form', id: 'chat-form' },
      this.input,
      h('button', { type: 'submit', id: 'chat-send' }, t('send')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim().slice(0, CHAT_MAX);
      if (text && this.send(text)) this.input.value = '';
    });
    this.el.replaceChildren(h('label', { class: 'check chat-switch' }, toggle, t('showChat')));
    if (!this.hidden) this.el.append(this.list, form, this.report);
    this.drawLines();
  }

  private drawLines(): void {
    this.list.replaceChildren(
      ...this.messages.map((m) => {
        const who = m.name ?? (m.from === 'sente' ? t('sente') : t('gote'));
        const mark = m.from === 'sente' ? '☗' : m.from === 'gote' ? '☖' : '';
        const theirs = m.from !== undefined && m.from !== this.you;
        const n = m.n;
        const flag =
          theirs && !m.hidden && n !== undefined && me()
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'chat-flag link-button',
                  title: t('reportMessage'),
                  'aria-label': `${t('reportMessage')} ${n}`,
                  onclick: () => this.openReport(n),
                },
                '⚑',
              )
            : null;
        return h(
          'div',
          { class: `chat-line${m.from === this.you ? ' mine' : ''}${m.hidden ? ' hidden-line' : ''}` },
          h('span', { class: 'chat-name' }, `${mark} ${who}: `),
          m.hidden
            ? h('span', { class: 'chat-text chat-hidden' }, t('chatHiddenByModerator'))
            : h('span', { class: 'chat-text' }, m.text ?? ''),
          flag,
        );
      }),
    );
    this.list.scrollTop = this.list.scrollHeight;
  }

  private openReport(n: number): void {
    this.report.replaceChildren(reportForm(this.game, n, () => undefined));
  }
}
