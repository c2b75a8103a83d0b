// A tiny helper for building DOM trees, and the box of a wide table.

import { t } from './i18n/i18n';

type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'value' && 'value' in el) (el as HTMLInputElement).value = String(v);
    else if (k === 'checked' && 'checked' in el) (el as HTMLInputElement).checked = Boolean(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

export function option(value: string, label: string, selected: string): HTMLOptionElement {
  const o = h('option', { value }, label);
  o.selected = value === selected;
  return o;
}

/**
 * The box of a table that may be wider than the screen (a phone): the table
 * scrolls sideways inside it, and while it is wider than the box the box is
 * marked `overflows`, which shows the cue above it ("the table scrolls
 * sideways →") and a shadow at the edge with more to see.
 */
export function scrollBox(table: HTMLElement): HTMLElement {
  const scroller = h('div', { class: 'table-scroll' }, table);
  const box = h(
    'div',
    { class: 'table-box' },
    h('p', { class: 'scroll-cue note', 'aria-hidden': 'true' }, t('tableScrolls')),
    scroller,
  );
  const measure = () => box.classList.toggle('overflows', scroller.scrollWidth > scroller.clientWidth + 1);
  if (typeof ResizeObserver === 'function') {
    const watch = new ResizeObserver(measure);
    watch.observe(scroller);
    watch.observe(table);
  }
  return box;
}

/**
 * A file input worded in the page's language. A browser words its own file
 * input ("Choose File", "No file chosen") in the browser's language, so the
 * input is hidden inside a label that looks like a button and reads `label`
 * (a click on it, or Enter or Space once it has the focus, opens the
 * browser's file dialog), with the chosen file's name, or "no file chosen",
 * beside it. `attrs` go on the input (`id`, `class`, `accept`), where a page
 * reads the chosen file. `chosen`, a file chosen in a picker the page drew
 * before this one, is this one's choice too (a page drawn again while its
 * upload runs still names the file).
 */
export function filePicker(
  label: string,
  attrs: Attrs,
  chosen: File | null = null,
): { element: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { ...attrs, type: 'file', hidden: true });
  if (chosen) {
    const files = new DataTransfer();
    files.items.add(chosen);
    input.files = files.files;
  }
  const name = h('span', { class: 'file-name' }, chosen?.name ?? t('noFileChosen'));
  input.addEventListener('change', () => {
    name.textContent = input.files?.[0]?.name ?? t('noFileChosen');
  });
  const button = h('label', { class: 'file-button', tabindex: 0, role: 'button' }, label, input);
  button.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      input.click();
    }
  });
  const element = h('span', { class: 'file-picker' }, button, ' ', name);
  return { element, input };
}
