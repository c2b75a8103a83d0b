// A move tree as a list: the moves of the main line, each move's variations
// after it (indented), the shown move marked; used by the review board and
// the analysis board.

import { h } from '../dom';
import { t } from '../i18n/i18n';
import { moveText } from '../board/movetext';
import type { Notation } from '../board/notation';
import { applyUsi, type Position } from '../board/shogi';
import { nodeAt, parsePathKey, pathKey, type Cursor, type Path, type TreeNode } from './tree';

/**
 * The items of the move list of `tree` from `start`: the start, then every
 * move (`data-ply`, `data-path` name where it is), the one at `at` marked
 * `current`; in `notation` (default: the language's).
 */
export function moveListItems(tree: TreeNode[], start: Position, at: Cursor, notation?: Notation): HTMLElement[] {
  const current = nodeAt(tree, at);
  const lineItems = (
    nodes: TreeNode[],
    offset: number,
    path: Path,
    pos: Position,
    prevTo: string | undefined,
  ): HTMLElement[] => {
    const items: HTMLElement[] = [];
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k];
      const r = applyUsi(pos, node.usi);
      if (!r) break;
      const ply = offset + k + 1;
      items.push(
        h(
          'span',
          {
            class: `move${node === current ? ' current' : ''}${node.comments.length ? ' has-comment' : ''}`,
            'data-ply': String(ply),
            'data-path': pathKey(path),
          },
          `${ply}. ${moveText(r.info, prevTo, notation)}`,
        ),
      );
      if (node.variations.length) {
        items.push(
          h(
            'div',
            { class: 'variations' },
            node.variations.map((v, i) =>
              h('div', { class: 'variation' }, lineItems(v, offset + k, [...path, [offset + k, i]], pos, prevTo)),
            ),
          ),
        );
      }
      pos = r.pos;
      prevTo = r.info.to;
    }
    return items;
  };
  const first = h(
    'span',
    { class: `move${at.ply === 0 ? ' current' : ''}`, 'data-ply': '0', 'data-path': '' },
    t('start'),
  );
  return [first, ...lineItems(tree, 0, [], start, undefined)];
}

/** The list box (`#moves`) of `items`; a click on a move calls `pick` with its place. */
export function moveListBox(items: HTMLElement[], pick: (at: Cursor) => void): HTMLElement {
  const moves = h('div', { class: 'moves', id: 'moves' }, items);
  moves.addEventListener('click', (e) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('.move');
    if (el?.dataset.ply === undefined) return;
    pick({ path: parsePathKey(el.dataset.path ?? ''), ply: Number(el.dataset.ply) });
  });
  return moves;
}

/**
 * Scrolls the list `box` (not the page: the board stays where it is) so that
 * `item` is inside it.
 */
export function scrollIntoList(box: HTMLElement, item: HTMLElement | null): void {
  if (!item) return;
  const top = item.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + item.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = top + item.offsetHeight - box.clientHeight;
}
