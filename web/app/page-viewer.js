// A page image (GET /v1/documents/ID/pages/N.png) with the detected tables outlined on it: the
// outlines are an SVG laid over the image in the page's own units, so boxes need no scaling and
// stay on their cells at every zoom (both scale with the frame they share).
//
// Zoom: the + / − buttons, Ctrl + wheel (a trackpad pinch arrives as one) and a two-finger pinch
// on touch screens, each around the point under the pointer; "Fit" goes back to the whole width.
// Zoomed in, the page scrolls inside its viewport and a sharper image is fetched.
//
// Review: `focus` ({page, bbox, editing}) is the value being looked at, highlighted on its page
// (which the viewer turns to, scrolled into view when zoomed); while a value is edited, the page's
// words (`words`, from GET /v1/documents/ID/words) can be clicked: `onWord(text, append, box)`,
// Shift-click to add the word to what is there. A word's press keeps the focus in the input.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';
import { errorText } from './api.js';

// Wide enough for a laptop's half screen at 2× pixels; zoomed past 1.5× the page is fetched at
// the API's widest (2400). The server's cache keys on the width, so these are the only two.
const IMAGE_WIDTH = 1200;
const SHARP_WIDTH = 2400;
const MIN_ZOOM = 1;
const MAX_ZOOM = 6;
const STEP = 1.25;

const clamp = (z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

/** The page image at `width`, as an object URL revoked when it is replaced. */
function usePageImage(api, id, page, width) {
  const [image, setImage] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let url = null;
    let live = true;
    setError(null);
    api.pageUrl(id, page, width).then(
      (img) => {
        url = img.url;
        if (live) setImage({ ...img, page });
        else URL.revokeObjectURL(url);
      },
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
      if (url) setTimeout(() => URL.revokeObjectURL(url), 1000);
    };
  }, [api, id, page, width]);
  return { image: image?.page === page ? image : null, error };
}

/** Zoom state and the handlers that change it around a point of the viewport. */
function useZoom(viewport) {
  const [zoom, setZoom] = useState(1);
  // The page point that must stay under (x, y) of the viewport once the new zoom is laid out.
  const anchor = useRef(null);
  const pinch = useRef({ pointers: new Map(), start: null });

  const zoomTo = (next, x, y) => {
    const el = viewport.current;
    const z = clamp(next);
    if (!el || z === zoom) return;
    const px = x ?? el.clientWidth / 2;
    const py = y ?? el.clientHeight / 2;
    anchor.current = { x: px, y: py, fx: (el.scrollLeft + px) / zoom, fy: (el.scrollTop + py) / zoom };
    setZoom(z);
  };
  useLayoutEffect(() => {
    const el = viewport.current;
    const a = anchor.current;
    if (!el || !a) return;
    el.scrollLeft = a.fx * zoom - a.x;
    el.scrollTop = a.fy * zoom - a.y;
    anchor.current = null;
  }, [zoom]);

  const at = (e) => {
    const r = viewport.current.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  // Wheel listeners added by Preact are passive, so the page would zoom too: this one is not.
  useEffect(() => {
    const el = viewport.current;
    if (!el) return undefined;
    const onWheel = (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomTo(zoom * Math.exp(-e.deltaY / 300), ...at(e));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  });

  const pointer = {
    onPointerDown: (e) => {
      if (e.pointerType !== 'touch') return;
      pinch.current.pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pinch.current.pointers.size === 2) pinch.current.start = { zoom, dist: spread(pinch.current.pointers) };
    },
    onPointerMove: (e) => {
      const p = pinch.current;
      if (!p.pointers.has(e.pointerId)) return;
      p.pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (p.pointers.size !== 2 || !p.start) return;
      const [[x1, y1], [x2, y2]] = [...p.pointers.values()];
      const r = viewport.current.getBoundingClientRect();
      zoomTo(p.start.zoom * (spread(p.pointers) / p.start.dist), (x1 + x2) / 2 - r.left, (y1 + y2) / 2 - r.top);
    },
    onPointerUp: (e) => {
      pinch.current.pointers.delete(e.pointerId);
      if (pinch.current.pointers.size < 2) pinch.current.start = null;
    },
  };
  pointer.onPointerCancel = pointer.onPointerUp;
  return { zoom, zoomTo, pointer };
}

function spread(pointers) {
  const [[x1, y1], [x2, y2]] = [...pointers.values()];
  return Math.max(1, Math.hypot(x2 - x1, y2 - y1));
}

/** Scrolls the viewport (not the window) so the box is in view; `frame` gives the page's scale. */
function scrollIntoViewport(el, frame, img, bbox) {
  const sx = frame.clientWidth / img.pageWidth;
  const sy = frame.clientHeight / img.pageHeight;
  const [x0, y0, x1, y1] = [bbox[0] * sx, bbox[1] * sy, bbox[2] * sx, bbox[3] * sy];
  const margin = 24;
  if (x0 < el.scrollLeft || x1 > el.scrollLeft + el.clientWidth) el.scrollLeft = Math.max(0, x0 - margin);
  if (y0 < el.scrollTop || y1 > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, y0 - margin);
}

export function PageViewer({ api, doc, tables, focus, words, onWord }) {
  const pageCount = doc.page_count ?? 1;
  const [page, setPage] = useState(1);
  const viewport = useRef(null);
  const frame = useRef(null);
  const { zoom, zoomTo, pointer } = useZoom(viewport);
  // The page of the value being looked at comes into view.
  useEffect(() => {
    if (focus?.page && focus.page !== page && focus.page <= pageCount) setPage(focus.page);
  }, [focus?.page, focus?.key]);
  const { image, error } = usePageImage(api, doc.id, page, zoom > 1.5 ? SHARP_WIDTH : IMAGE_WIDTH);
  // A page image of the other width keeps showing until the new one is there.
  const shown = useRef(null);
  if (image) shown.current = image;
  const img = shown.current?.page === page ? shown.current : null;

  const onPage = tables.map((t, i) => ({ t, i })).filter(({ t }) => t.page === page);
  const focusBox = focus?.bbox && focus.page === page && focus.bbox[2] > focus.bbox[0] ? focus.bbox : null;
  useLayoutEffect(() => {
    if (focusBox && img && viewport.current && frame.current) scrollIntoViewport(viewport.current, frame.current, img, focusBox);
  }, [focusBox?.join(), img, zoom]);
  const pageWords = focus?.editing && onWord ? (words?.find((w) => w.page === page) ?? null) : null;
  // Stored words are in page units as the image's boxes are; scaled should the two ever differ.
  const wx = pageWords && img ? img.pageWidth / pageWords.width : 1;
  const wy = pageWords && img ? img.pageHeight / pageWords.height : 1;
  return html`
    <figure class="page">
      <div class="pager" role="group" aria-label="Pages">
        <button type="button" class="secondary" disabled=${page <= 1} onClick=${() => setPage(page - 1)} aria-label="Previous page">‹</button>
        <label for="page-select">Page</label>
        <select id="page-select" value=${page} disabled=${pageCount <= 1} onChange=${(e) => setPage(Number(e.currentTarget.value))}>
          ${Array.from({ length: pageCount }, (_, k) => html`<option value=${k + 1}>${k + 1}</option>`)}
        </select>
        <span class="help">of ${pageCount}</span>
        <button type="button" class="secondary" disabled=${page >= pageCount} onClick=${() => setPage(page + 1)} aria-label="Next page">›</button>
        <span class="zoom" role="group" aria-label="Zoom">
          <button type="button" class="secondary" data-test="zoom-out" disabled=${zoom <= MIN_ZOOM} onClick=${() => zoomTo(zoom / STEP)} aria-label="Zoom out">−</button>
          <output data-test="zoom-level" aria-live="polite">${Math.round(zoom * 100)} %</output>
          <button type="button" class="secondary" data-test="zoom-in" disabled=${zoom >= MAX_ZOOM} onClick=${() => zoomTo(zoom * STEP)} aria-label="Zoom in">+</button>
          <button type="button" class="secondary" data-test="zoom-reset" disabled=${zoom === MIN_ZOOM} onClick=${() => zoomTo(MIN_ZOOM, 0, 0)}>Fit</button>
        </span>
      </div>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${!img && !error && html`<p class="help">Rendering page ${page}…</p>`}
      <div class="page-viewport" data-test="page-viewport" ref=${viewport} hidden=${!img} tabindex="0" aria-label="Page image; Ctrl + wheel or pinch to zoom" ...${pointer}>
        ${img && html`
          <div class="page-frame" data-test="page-frame" ref=${frame} style=${{ width: `${zoom * 100}%` }}>
            <img data-test="page-image" src=${img.url} alt=${`Page ${page} of ${doc.filename}`} draggable="false" />
            <svg class="outlines" viewBox=${`0 0 ${img.pageWidth} ${img.pageHeight}`} preserveAspectRatio="none" aria-hidden="true">
              ${onPage.map(({ t, i }) => html`
                <g data-test="table-outline" data-index=${i}>
                  ${t.pages.length <= 1 && t.cells.map((c) => html`<rect class="cell" data-row=${c.row} data-col=${c.col} x=${c.bbox[0]} y=${c.bbox[1]} width=${c.bbox[2] - c.bbox[0]} height=${c.bbox[3] - c.bbox[1]} />`)}
                  <rect class="table" x=${t.bbox[0]} y=${t.bbox[1]} width=${t.bbox[2] - t.bbox[0]} height=${t.bbox[3] - t.bbox[1]} />
                  <text x=${t.bbox[0]} y=${Math.max(0, t.bbox[1] - 4)} font-size=${Math.max(8, img.pageWidth / 60)}>Table ${i + 1}</text>
                </g>`)}
              ${focusBox && html`<rect class="focus" data-test="focus-box" x=${focusBox[0]} y=${focusBox[1]} width=${focusBox[2] - focusBox[0]} height=${focusBox[3] - focusBox[1]} />`}
            </svg>
            ${pageWords && html`
              <svg class="words" data-test="page-words" viewBox=${`0 0 ${img.pageWidth} ${img.pageHeight}`} preserveAspectRatio="none" aria-hidden="true">
                ${pageWords.words.map((w) => html`<rect class="word" data-test="page-word" data-text=${w.text} x=${w.bbox[0] * wx} y=${w.bbox[1] * wy} width=${(w.bbox[2] - w.bbox[0]) * wx} height=${(w.bbox[3] - w.bbox[1]) * wy}
                  onMouseDown=${(e) => e.preventDefault()} onClick=${(e) => onWord(w.text, e.shiftKey, { page, bbox: [w.bbox[0] * wx, w.bbox[1] * wy, w.bbox[2] * wx, w.bbox[3] * wy] })}><title>${w.text}</title></rect>`)}
              </svg>`}
          </div>`}
      </div>
      ${pageWords && html`<p class="help" data-test="word-hint">Click a word on the page to put it in the value being edited (Shift-click adds it).</p>`}
      ${focus?.editing && onWord && !pageWords && html`<p class="help">No words kept for page ${page} to pick from.</p>`}
      <figcaption>${onPage.length ? `${onPage.length} table${onPage.length === 1 ? '' : 's'} outlined on page ${page}` : `No table detected on page ${page}`}</figcaption>
    </figure>`;
}
