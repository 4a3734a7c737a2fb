// A value edited in place, keyboard first, as in a spreadsheet: the value is a button; Enter, F2,
// a click or typing a character opens it as an input (typing replaces the value). In the input,
// Enter saves and moves to the next value (on a value left as it was, Enter accepts it: `onAccept`
// confirms it as right), Tab saves and moves on as Tab does, Escape puts the value back. Arrow keys
// move between the fields, the line items' cells and a table's cells, and from the edge of one to
// the next. While a value has focus its box is highlighted on the page; while it is edited a click
// on a word of the page puts that word in.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

/** The editable values of the page in document order. */
const editables = () => [...document.querySelectorAll('[data-edit]')];

/** The editable cell of the same grid next to `el` in direction (dr, dc), skipping positions a span covers. */
function neighbour(el, dr, dc) {
  const grid = el.getAttribute('data-grid');
  if (!grid) return null;
  const r = Number(el.getAttribute('data-r'));
  const c = Number(el.getAttribute('data-c'));
  const cells = [...document.querySelectorAll(`[data-grid="${grid}"]`)].map((e) => ({ e, r: Number(e.getAttribute('data-r')), c: Number(e.getAttribute('data-c')) }));
  const ahead = cells.filter((x) => (dr ? x.c === c && Math.sign(x.r - r) === dr : x.r === r && Math.sign(x.c - c) === dc));
  ahead.sort((a, b) => (dr ? (a.r - b.r) * dr : (a.c - b.c) * dc));
  return ahead[0]?.e ?? null;
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** Past the edge of its grid (the last field, the last item, a table's last row): the first value of the next grid down, or the last of the one above. */
function acrossGrids(el, dr) {
  if (!dr) return null;
  const list = editables();
  const grid = el.getAttribute('data-grid');
  const at = list.indexOf(el);
  const other = dr > 0 ? list.slice(at + 1).find((e) => e.getAttribute('data-grid') !== grid) : list.slice(0, at).reverse().find((e) => e.getAttribute('data-grid') !== grid);
  return other ?? null;
}

/**
 * `id` names the value (unique on the page); `raw` is its text for editing; `box` ({page, bbox})
 * where it stands; `onSave(text)` stores a changed value; `grid`, `r`, `c` place a table cell for
 * the arrow keys; children show the value.
 */
export function Editable({ review, id, raw, label, box, corrected, onSave, onAccept, grid, r, c, test, children }) {
  const [draft, setDraft] = useState(null);
  const button = useRef(null);
  const input = useRef(null);
  const closed = useRef(true);
  const selectAll = useRef(false);
  const editing = draft !== null;

  useLayoutEffect(() => {
    if (!editing || !input.current) return;
    input.current.focus();
    if (selectAll.current) input.current.select();
    selectAll.current = false;
  }, [editing]);
  // In the commit that puts the button back, so Escape leaves the focus on it at once.
  useLayoutEffect(() => {
    if (!editing && review.focusKey.current === id && button.current) {
      review.focusKey.current = null;
      button.current.focus();
    }
  });

  const highlight = (on) => review.setActive({ key: id, page: box?.page ?? null, bbox: box?.bbox ?? null, editing: on });
  const start = (initial) => {
    closed.current = false;
    selectAll.current = initial === undefined;
    setDraft(initial ?? raw);
    review.sink.current = (word, append, bbox) => {
      setDraft((d) => (append && d ? `${d} ${word}` : word));
      review.setActive((a) => ({ ...a, page: bbox.page, bbox: append && a?.bbox && a.page === bbox.page ? union(a.bbox, bbox.bbox) : bbox.bbox }));
    };
    highlight(true);
  };
  const close = () => {
    closed.current = true;
    review.sink.current = null;
    setDraft(null);
  };
  /** Saves a changed value; with `accept` (Enter), an unchanged one is confirmed as right. */
  const commit = (accept = false) => {
    if (closed.current) return;
    const text = (input.current?.value ?? draft).trim();
    close();
    review.setActive((a) => (a?.key === id ? { ...a, editing: false } : a));
    if (text !== String(raw ?? '').trim()) void onSave(text);
    else if (accept && onAccept && !corrected && text !== '') void onAccept();
  };

  const onInputKey = (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      const list = editables();
      const next = list[list.indexOf(e.currentTarget) + 1];
      commit(true);
      if (next) next.focus();
      else review.focusKey.current = id;
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
      highlight(false);
      review.focusKey.current = id;
    }
  };
  const onButtonKey = (e) => {
    if (e.key === 'F2') {
      e.preventDefault();
      start();
    } else if (ARROWS[e.key] && grid) {
      const to = neighbour(e.currentTarget, ...ARROWS[e.key]) ?? acrossGrids(e.currentTarget, ARROWS[e.key][0]);
      if (to) {
        e.preventDefault();
        to.focus();
      }
    } else if (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      start(e.key);
    }
  };

  const place = grid ? { 'data-grid': grid, 'data-r': r, 'data-c': c } : {};
  if (editing) {
    return html`<input class="edit-input" data-edit=${id} data-test="edit-input" ...${place} ref=${input} value=${draft} aria-label=${`${label}: Enter saves, Escape puts it back; a click on a word of the page puts it in`}
      onInput=${(e) => setDraft(e.currentTarget.value)} onKeyDown=${onInputKey} onBlur=${() => commit()} />`;
  }
  return html`<button type="button" class=${`editable${corrected ? ' corrected' : ''}`} data-edit=${id} data-test=${test ?? 'editable'} data-corrected=${corrected ? 'true' : undefined} ...${place}
    ref=${button} aria-label=${`${label}: ${String(raw ?? '') || 'empty'}${corrected ? ' (corrected)' : ''}`} title=${corrected ? 'Corrected: Enter to edit' : onAccept ? 'Enter to edit; Enter again on the value as it is accepts it' : 'Enter to edit'}
    onClick=${() => start()} onKeyDown=${onButtonKey} onFocus=${() => highlight(false)}>${children}</button>`;
}

const union = (a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
