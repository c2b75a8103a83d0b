// The start screen: create a game.

import { guestNameToSend } from '../accounts/account';
import { guestNameField } from '../accounts/accountbar';
import { createGame, saveToken, type CreateRequest } from '../api/api';
import { h, option } from '../dom';
import { t, type MsgKey } from '../i18n/i18n';
import { clockRulesFields, clockRulesRequest, DEFAULT_CLOCK_RULES, field, type ClockRules } from '../rules/gameoptions';
import { HANDICAPS, sideOptions } from '../rules/handicaps';
import type { Navigate } from '../screen';

interface Form extends ClockRules {
  mode: 'ai' | 'friend' | 'local';
  level: number;
  side: 'sente' | 'gote' | 'random';
  handicap: string;
}

const form: Form = {
  mode: 'ai',
  level: 3,
  side: 'sente',
  handicap: 'even',
  ...DEFAULT_CLOCK_RULES,
};

export function request(f: Form): CreateRequest {
  const req: CreateRequest = {
    mode: f.mode,
    side: f.side,
    handicap: f.handicap,
    ...clockRulesRequest(f),
  };
  if (f.mode === 'ai') req.ai = { level: f.level };
  const name = guestNameToSend();
  if (name) req.name = name;
  return req;
}

export function renderStart(root: HTMLElement, navigate: Navigate): void {
  const error = h('p', { class: 'error', role: 'alert' });
  const select = <K extends keyof Form>(name: K, opts: [string, string][], after?: () => void) => {
    const s = h(
      'select',
      { name: String(name) },
      opts.map(([v, l]) => option(v, l, String(form[name]))),
    );
    s.addEventListener('change', () => {
      const v = s.value;
      (form as unknown as Record<string, unknown>)[name] = typeof form[name] === 'number' ? Number(v) : v;
      after?.();
    });
    return s;
  };
  const rerender = () => renderStart(root, navigate);
  const levelField = field(
    t('level'),
    select(
      'level',
      Array.from({ length: 10 }, (_, i) => [String(i + 1), String(i + 1)]),
    ),
  );
  const sideSelect = select('side', sideOptions(form.handicap));
  const sideField = field(t('yourSide'), sideSelect);
  const handicapNote = h('p', { class: 'note', id: 'handicap-note' }, t('handicapNote'));
  handicapNote.hidden = form.handicap === 'even';
  // The side labels and the note follow the handicap (in place: the focus stays on the select).
  const onHandicap = () => {
    sideSelect.replaceChildren(...sideOptions(form.handicap).map(([v, l]) => option(v, l, form.side)));
    handicapNote.hidden = form.handicap === 'even';
  };
  const submit = h('button', { type: 'submit', class: 'primary', id: 'create' }, t('create'));
  const formEl = h(
    'form',
    { class: 'start', id: 'start-form' },
    h('h1', {}, t('newGame')),
    field(
      t('opponent'),
      select(
        'mode',
        [
          ['ai', t('vsComputer')],
          ['friend', t('vsFriend')],
          ['local', t('vsLocal')],
        ],
        () => {
          form.impasse = form.mode === 'ai' ? '27' : 'count24';
          rerender();
        },
      ),
    ),
    form.mode === 'ai' ? levelField : null,
    form.mode !== 'local' ? sideField : null,
    field(
      t('handicap'),
      select(
        'handicap',
        HANDICAPS.map((hc) => [hc, t(`hc_${hc}` as MsgKey)]),
        onHandicap,
      ),
    ),
    handicapNote,
    ...clockRulesFields(form),
    guestNameField('guest-name'),
    submit,
    error,
  );
  formEl.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      const created = await createGame(request(form));
      saveToken(created.id, created.token);
      if (created.invite) localStorage.setItem(`shogi.invite.${created.id}`, created.invite);
      navigate(`/g/${created.id}`);
    } catch (err) {
      error.textContent = err instanceof Error ? err.message : String(err);
      submit.disabled = false;
    }
  });
  root.replaceChildren(formEl);
}
