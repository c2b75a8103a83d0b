// The chat of a game's two players: the lines so far, a box to write in
// (200 characters at most), and a switch to hide it (remembered). Text is
// always put in as text, never as HTML.

import type { ChatMessage, Side } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';

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

  /** `send` hands a line to the game's socket and says whether it went. */
  constructor(
    private you: Side,
    private send: (text: string) => boolean,
  ) {
    this.draw();
  }

  /** A new line (`history` false) or the game's last lines on connect (`history` true, replacing the list). */
  add(msgs: ChatMessage[], history: boolean): void {
    this.messages = history ? [...msgs] : [...this.messages, ...msgs];
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
    if (!this.hidden) this.el.append(this.list, form);
    this.drawLines();
  }

  private drawLines(): void {
    this.list.replaceChildren(
      ...this.messages.map((m) => {
        const who = m.name ?? (m.from === 'sente' ? t('sente') : t('gote'));
        return h(
          'div',
          { class: `chat-line${m.from === this.you ? ' mine' : ''}` },
          h('span', { class: 'chat-name' }, `${m.from === 'sente' ? '☗' : '☖'} ${who}: `),
          h('span', { class: 'chat-text' }, m.text),
        );
      }),
    );
    this.list.scrollTop = this.list.scrollHeight;
  }
}
