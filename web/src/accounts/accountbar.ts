// The account bar on every screen (the logged-in name linking to the profile,
// and "Log out"; or "Log in" / "Register"), the dialog for logging in or
// registering, and the "Your name" field guests fill in.

import { guestName, login, logout, me, moderates, register, setGuestName, tooMany } from './account';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import { profilePath } from './players';

/** Draws the account bar into `bar`; `refresh` draws the current screen again after logging in or out. */
export function renderAccountBar(bar: HTMLElement, refresh: () => void): void {
  const m = me();
  if (m) {
    const out = h('button', { type: 'button', id: 'logout', class: 'link-button' }, t('logOut'));
    out.addEventListener('click', async () => {
      out.disabled = true;
      await logout().catch(() => undefined);
      refresh();
    });
    bar.replaceChildren(
      h('a', { href: profilePath(m.name), 'data-link': true, id: 'account-name', class: 'account-name' }, m.name),
      moderates(m) ? h('a', { href: '/admin', 'data-link': true, id: 'link-admin' }, t('admLink')) : '',
      out,
    );
  } else {
    const open = (mode: 'login' | 'register') => () => openLoginDialog(mode, refresh);
    bar.replaceChildren(
      h('button', { type: 'button', id: 'login-open', class: 'link-button', onclick: open('login') }, t('logIn')),
      h(
        'button',
        { type: 'button', id: 'register-open', class: 'link-button', onclick: open('register') },
        t('register'),
      ),
    );
  }
}

/** Opens the dialog to log in or register (switchable inside); the current screen is drawn again after. */
export function openLoginDialog(mode: 'login' | 'register', refresh: () => void): void {
  document.getElementById('login-dialog')?.remove();
  const dialog = h('dialog', { id: 'login-dialog', class: 'login-dialog' });
  const draw = () => {
    const name = h('input', {
      id: 'login-name',
      name: 'username',
      autocomplete: 'username',
      required: true,
      maxlength: 24,
    });
    const password = h('input', {
      id: 'login-password',
      name: 'password',
      type: 'password',
      required: true,
      minlength: 8,
      maxlength: 256,
      autocomplete: mode === 'login' ? 'current-password' : 'new-password',
    });
    const error = h('p', { class: 'error', id: 'login-error', role: 'alert' });
    const submit = h(
      'button',
      { type: 'submit', class: 'primary', id: 'login-submit' },
      mode === 'login' ? t('logIn') : t('register'),
    );
    const other = h(
      'button',
      { type: 'button', class: 'link-button', id: 'login-switch' },
      mode === 'login' ? t('noAccountRegister') : t('haveAccountLogIn'),
    );
    other.addEventListener('click', () => {
      mode = mode === 'login' ? 'register' : 'login';
      draw();
    });
    const cancel = h('button', { type: 'button', id: 'login-cancel' }, t('cancel'));
    cancel.addEventListener('click', () => dialog.close());
    const form = h(
      'form',
      { class: 'login-form', id: 'login-form' },
      h('h2', {}, mode === 'login' ? t('logIn') : t('register')),
      h('label', { class: 'field' }, h('span', {}, t('accountName')), name),
      mode === 'register' ? h('p', { class: 'note' }, t('nameRules')) : null,
      h('label', { class: 'field' }, h('span', {}, t('password')), password),
      mode === 'register' ? h('p', { class: 'note' }, t('passwordRules')) : null,
      error,
      h('div', { class: 'controls' }, submit, cancel),
      other,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      error.textContent = '';
      try {
        if (mode === 'login') await login(name.value.trim(), password.value);
        else await register(name.value.trim(), password.value);
        dialog.close();
        refresh();
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        error.textContent = tooMany(err) && !msg ? t('tooManyAttempts') : msg;
        submit.disabled = false;
      }
    });
    dialog.replaceChildren(form);
    name.focus();
  };
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  draw();
  dialog.showModal();
}

/**
 * The "Your name" field of a guest (optional, remembered in this browser);
 * `null` for a logged-in player, whose seat takes the account's name.
 */
export function guestNameField(id: string): HTMLElement | null {
  if (me()) return null;
  const input = h('input', {
    id,
    name: 'guest-name',
    value: guestName(),
    maxlength: 24,
    placeholder: t('optional'),
    autocomplete: 'nickname',
  });
  input.addEventListener('input', () => setGuestName(input.value));
  return h('label', { class: 'field guest-name' }, h('span', {}, t('yourName')), input);
}
