// The import page: a record pasted or chosen as a file, saved on the server
// and opened in the review board.

import { request as call, saveToken } from '../api/api';
import { h } from '../dom';
import { t } from '../i18n/i18n';
import type { Navigate, Screen } from '../screen';

/** Draws the import page; a record the server accepts opens in the review board. */
export function renderImport(root: HTMLElement, navigate: Navigate): Screen {
  let text = '';
  const render = () => {
    const area = h('textarea', { id: 'import-text', rows: 14, cols: 60, spellcheck: false });
    area.value = text;
    area.addEventListener('input', () => (text = area.value));
    const file = h('input', { type: 'file', id: 'import-file' });
    const err = h('p', { class: 'error', id: 'import-error' });
    const send = async (body: BodyInit) => {
      err.textContent = '';
      try {
        const r = await call<{ id: string; token: string }>('POST', '/api/import?save=1', body);
        // The owner token lets this browser save comments and variations on the record.
        saveToken(r.id, r.token);
        navigate(`/review/${r.id}`);
      } catch (e) {
        err.textContent = e instanceof Error ? e.message : String(e);
      }
    };
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (f) send(f);
    });
    const button = h('button', { type: 'button', id: 'import-submit' }, t('importButton'));
    button.addEventListener('click', () => send(new Blob([area.value])));
    root.replaceChildren(
      h(
        'section',
        { class: 'import' },
        h('h1', {}, t('importTitle')),
        h('p', {}, t('importHelp')),
        area,
        h('div', { class: 'controls' }, button, h('label', {}, `${t('chooseFile')}: `, file)),
        err,
      ),
    );
  };
  render();
  return { destroy() {}, rerender: render };
}
