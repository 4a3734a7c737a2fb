// A page image (GET /v1/documents/ID/pages/N.png) with the detected tables outlined on it: the
// outlines are an SVG laid over the image in the page's own units, so boxes need no scaling.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { errorText } from './api.js';

// Wide enough for a laptop's half screen at 2× pixels; the cache keys on it, so it is one value.
const IMAGE_WIDTH = 1200;

export function PageViewer({ api, doc, tables }) {
  const pageCount = doc.page_count ?? 1;
  const [page, setPage] = useState(1);
  const [image, setImage] = useState(null);
  const [error, setError] = useState(null);

  useEffect(() => {
    let url = null;
    let live = true;
    setImage(null);
    setError(null);
    api.pageUrl(doc.id, page, IMAGE_WIDTH).then(
      (img) => {
        url = img.url;
        if (live) setImage(img);
        else URL.revokeObjectURL(url);
      },
      (err) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, doc.id, page]);

  const onPage = tables.map((t, i) => ({ t, i })).filter(({ t }) => t.page === page);
  return html`
    <figure class="page">
      <div class="pager" role="group" aria-label="Pages">
        <button type="button" class="secondary" disabled=${page <= 1} onClick=${() => setPage(page - 1)} aria-label="Previous page">‹</button>
        <label for="page-select">Page</label>
        <select id="page-select" value=${page} onChange=${(e) => setPage(Number(e.currentTarget.value))}>
          ${Array.from({ length: pageCount }, (_, k) => html`<option value=${k + 1}>${k + 1}</option>`)}
        </select>
        <span class="help">of ${pageCount}</span>
        <button type="button" class="secondary" disabled=${page >= pageCount} onClick=${() => setPage(page + 1)} aria-label="Next page">›</button>
      </div>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${!image && !error && html`<p class="help">Rendering page ${page}…</p>`}
      ${image && html`
        <div class="page-frame">
          <img data-test="page-image" src=${image.url} alt=${`Page ${page} of ${doc.filename}`} />
          <svg class="outlines" viewBox=${`0 0 ${image.pageWidth} ${image.pageHeight}`} preserveAspectRatio="none" aria-hidden="true">
            ${onPage.map(({ t, i }) => html`
              <g data-test="table-outline" data-index=${i}>
                ${t.pages.length <= 1 && t.cells.map((c) => html`<rect class="cell" x=${c.bbox[0]} y=${c.bbox[1]} width=${c.bbox[2] - c.bbox[0]} height=${c.bbox[3] - c.bbox[1]} />`)}
                <rect class="table" x=${t.bbox[0]} y=${t.bbox[1]} width=${t.bbox[2] - t.bbox[0]} height=${t.bbox[3] - t.bbox[1]} />
                <text x=${t.bbox[0]} y=${Math.max(0, t.bbox[1] - 4)} font-size=${Math.max(8, image.pageWidth / 60)}>Table ${i + 1}</text>
              </g>`)}
          </svg>
        </div>`}
      <figcaption>${onPage.length ? `${onPage.length} table${onPage.length === 1 ? '' : 's'} outlined on page ${page}` : `No table detected on page ${page}`}</figcaption>
    </figure>`;
}
