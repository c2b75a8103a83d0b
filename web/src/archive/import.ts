// The import page: a record pasted or chosen as a file is first read by the
// server without being stored (`POST /api/import`) and shown as a preview
// (the players, the date, the moves, a small board to step through, the
// reader's errors, and whether the archive has it already); the reader then
// chooses who may see it and saves it (`POST /api/import?save=1&visibility=`).
// A record the archive has already opens that one, with a note saying so.

import type { Api } from 'shogiground/api';

import { me, onAccountChange } from '../accounts/account';
import { request as call, saveToken } from '../api/api';
import { makeGround, lastDests } from '../board/ground';
import { boardColumn } from '../board/playboard';
import { boardSfen, handsSfen, replay, type MoveInfo, type Position } from '../board/shogi';
import { filePicker, h } from '../dom';
import { t } from '../i18n/i18n';
import { factsText, playersText, type RecordHead } from '../records/summary';
import { moveListBox, moveListItems, scrollIntoList } from '../records/movelist';
import { leaveNote } from '../records/opennote';
import { fromJson, type TreeNode } from '../records/tree';
import type { Navigate, Screen } from '../screen';

/** Who may see a saved record (docs/PROTOCOL.md, `POST /api/import`). */
type Visibility = 'public' | 'unlisted' | 'private';
const VISIBILITIES: Visibility[] = ['public', 'unlisted', 'private'];

/** What the server answers for a record it read (the fields the preview shows). */
interface ImportAnswer extends RecordHead {
  start_sfen: string;
  moves: string[];
  nodes: Partial<TreeNode>[];
  illegal_move: { ply: number; text: string; problem: string } | null;
  /** The same record already in the archive that this reader may open. */
  existing?: string | null;
}

/** The answer of a save: the record's id, and whether it was there already. */
interface Saved {
  id: string;
  /** The owner token (absent for a record already there that is not this account's). */
  token?: string;
  duplicate?: boolean;
}

/** The record read and shown: its source (sent again to save it) and the server's answer. */
interface Preview {
  body: Blob;
  rec: ImportAnswer;
  positions: Position[];
  infos: MoveInfo[];
  tree: TreeNode[];
}

/** Draws the import page. */
export function renderImport(root: HTMLElement, navigate: Navigate): Screen {
  let text = '';
  let preview: Preview | null = null;
  let ply = 0;
  let visibility: Visibility = 'public';
  let ground: Api | null = null;
  let error = '';
  let busy = false;

  const openRecord = (saved: Saved) => {
    // The owner token lets this browser save comments and variations on the record.
    if (saved.token) saveToken(saved.id, saved.token);
    if (saved.duplicate) leaveNote(saved.id, t('alreadyInArchive'));
    navigate(`/review/${saved.id}`);
  };

  const read = async (body: Blob) => {
    error = '';
    preview = null;
    render();
    try {
      const rec = await call<ImportAnswer>('POST', '/api/import', body);
      const played = replay(rec.start_sfen, rec.moves);
      // The main line only: variations are for the review board.
      const tree = fromJson(rec.nodes.map((n) => ({ ...n, variations: [] })));
      preview = { body, rec, ...played, tree };
      ply = played.positions.length - 1;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    render();
  };

  const save = async () => {
    if (!preview || busy) return;
    busy = true;
    error = '';
    render();
    try {
      const saved = await call<Saved>('POST', `/api/import?save=1&visibility=${visibility}`, preview.body);
      busy = false;
      openRecord(saved);
      return;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    busy = false;
    render();
  };

  const showPly = (n: number) => {
    if (!preview) return;
    ply = Math.max(0, Math.min(preview.positions.length - 1, n));
    render();
  };

  /** The preview: players and date, a small board with step buttons, the moves, the reader's problems. */
  const previewBox = (p: Preview): HTMLElement => {
    const rec = p.rec;
    const players = h('p', { class: 'import-players', id: 'import-players' }, playersText(rec));
    const info = h('p', { class: 'import-info', id: 'import-info' }, factsText(rec));
    const problems: HTMLElement[] = [];
    if (rec.illegal_move) {
      const words = t('importStopsAt')
        .replace('{ply}', String(rec.illegal_move.ply))
        .replace('{move}', rec.illegal_move.text);
      problems.push(h('p', { class: 'error', id: 'import-illegal' }, words));
    }
    const existing = rec.existing
      ? h(
          'p',
          { class: 'note', id: 'import-existing', role: 'status' },
          `${t('importExisting')} `,
          h('a', { href: `/review/${rec.existing}`, id: 'import-existing-open' }, t('open')),
        )
      : null;
    const boardEl = h('div', { class: 'board' });
    const handTop = h('div', { class: 'hand hand-top-el' });
    const handBottom = h('div', { class: 'hand hand-bottom-el' });
    const btn = (id: string, label: string, to: () => number) => {
      const b = h('button', { type: 'button', id }, label);
      b.addEventListener('click', () => showPly(to()));
      return b;
    };
    const last = p.positions.length - 1;
    const nav = h(
      'div',
      { class: 'nav' },
      btn('import-first', '«', () => 0),
      btn('import-prev', '‹', () => ply - 1),
      h('span', { id: 'import-ply', class: 'ply' }, `${ply} / ${last}`),
      btn('import-next', '›', () => ply + 1),
      btn('import-last', '»', () => last),
    );
    const col = boardColumn({ board: boardEl, handTop, handBottom }, nav);
    const items = moveListItems(p.tree, p.positions[0], { path: [], ply });
    const moves = p.rec.moves.length ? moveListBox(items, (at) => showPly(at.ply)) : h('p', {}, t('importNoMoves'));
    moves.id = 'import-moves';
    const side = h('div', { class: 'side import-side' }, players, info, existing, problems, moves);
    const box = h(
      'div',
      { class: 'import-preview', id: 'import-preview' },
      h('h2', {}, t('importPreview')),
      h('div', { class: 'game import-game' }, col, side),
    );
    // The board is made once its element is in the page.
    queueMicrotask(() => {
      ground?.destroy();
      const pos = p.positions[ply];
      ground = makeGround(
        {
          viewOnly: true,
          orientation: 'sente',
          sfen: { board: boardSfen(pos), hands: handsSfen(pos) },
          turnColor: pos.turn,
          lastDests: lastDests(p.infos[ply - 1]),
          highlight: { lastDests: true, check: false },
          animation: { enabled: false },
          coordinates: { enabled: true },
        },
        { board: boardEl, hands: { top: handTop, bottom: handBottom } },
      );
      scrollIntoList(moves, moves.querySelector('.move.current'));
    });
    return box;
  };

  /** The choice of who may see the record, and the Save button. */
  const saveForm = (): HTMLElement => {
    const loggedIn = me() !== null;
    if (!loggedIn && visibility === 'private') visibility = 'public';
    const words: Record<Visibility, string> = {
      public: t('visibilityPublic'),
      unlisted: t('visibilityUnlisted'),
      private: t('visibilityPrivate'),
    };
    const choices = VISIBILITIES.map((v) => {
      const disabled = v === 'private' && !loggedIn;
      const input = h('input', {
        type: 'radio',
        name: 'import-visibility',
        id: `import-visibility-${v}`,
        value: v,
        checked: v === visibility,
        disabled,
      });
      input.addEventListener('change', () => {
        if (input.checked) visibility = v;
      });
      return h(
        'label',
        { class: disabled ? 'choice disabled' : 'choice', for: `import-visibility-${v}` },
        input,
        ` ${words[v]}`,
      );
    });
    const hint = loggedIn ? null : h('p', { class: 'hint', id: 'import-private-hint' }, t('privateNeedsLogin'));
    const button = h('button', { type: 'button', id: 'import-save', disabled: busy }, t('importSave'));
    button.addEventListener('click', save);
    return h(
      'div',
      { class: 'import-save' },
      h('fieldset', { id: 'import-visibility' }, h('legend', {}, t('importVisibility')), choices, hint),
      button,
    );
  };

  const render = () => {
    const area = h('textarea', { id: 'import-text', rows: 14, cols: 60, spellcheck: false });
    area.value = text;
    area.addEventListener('input', () => {
      text = area.value;
    });
    const picker = filePicker(t('pickFile'), { id: 'import-file' });
    const file = picker.input;
    file.addEventListener('change', () => {
      const f = file.files?.[0];
      if (f) read(f);
    });
    const button = h('button', { type: 'button', id: 'import-submit' }, t('importButton'));
    button.addEventListener('click', () => read(new Blob([text])));
    const err = h('p', { class: 'error', id: 'import-error' }, error);
    if (!preview) {
      ground?.destroy();
      ground = null;
    }
    root.replaceChildren(
      h(
        'section',
        { class: 'import' },
        h('h1', {}, t('importTitle')),
        h('p', {}, t('importHelp')),
        area,
        h('div', { class: 'controls' }, button, picker.element),
        err,
        preview ? previewBox(preview) : null,
        preview ? saveForm() : null,
      ),
    );
  };
  const stop = onAccountChange(render);
  render();
  return {
    destroy() {
      stop();
      ground?.destroy();
    },
    rerender: render,
  };
}
