/** What the web app's browser test checks on every view: labelled controls and page width. */
import type { Page } from 'playwright-core';

/** The controls on the page without an accessible name (label, aria-label(ledby), or text). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.$$eval('input, select, textarea, button, a[href], [role=button]', (els) =>
    els
      .filter((el) => {
        const labels = (el as unknown as { labels?: ArrayLike<{ textContent: string | null }> }).labels;
        if (labels && Array.from(labels).some((l) => l.textContent?.trim())) return false;
        if (el.getAttribute('aria-label')?.trim()) return false;
        const by = el.getAttribute('aria-labelledby');
        if (by && by.split(/\s+/).some((id: string) => el.ownerDocument.getElementById(id)?.textContent?.trim())) return false;
        if ((el.tagName === 'BUTTON' || el.tagName === 'A') && (el.textContent?.trim() || el.querySelector('img[alt]'))) return false;
        return true;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** Images without alternative text, and whether the page states its language and title. */
export async function pageBasics(page: Page): Promise<{ imagesWithoutAlt: number; lang: string | null; title: string }> {
  return {
    imagesWithoutAlt: await page.locator('img:not([alt])').count(),
    lang: await page.getAttribute('html', 'lang'),
    title: await page.title(),
  };
}

/** How far the page scrolls sideways (0: it fits the viewport). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return (root.scrollWidth - root.clientWidth) as number;
  });
}

/** Drops `bytes` as a file named `name` onto `selector`, as a drag from the desktop does. */
export async function dropFile(page: Page, selector: string, name: string, type: string, bytes: Buffer): Promise<void> {
  await page.locator(selector).evaluate(
    (target, { name, type, b64 }) => {
      // Runs in the page: its DataTransfer, File and DragEvent (the test's own types have no DOM).
      const w = target.ownerDocument.defaultView as unknown as Record<string, new (...a: unknown[]) => any>;
      const bin = atob(b64);
      const arr = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i);
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([arr], name, { type }));
      for (const kind of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new w.DragEvent(kind, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { name, type, b64: bytes.toString('base64') },
  );
}

interface Box { x: number; y: number; width: number; height: number }

/**
 * Where the page viewer draws things, in CSS pixels of the browser window: the page image, the
 * page's size in result units (the outline SVG's viewBox), the scrolling viewport, and each cell
 * outline with its row and column.
 */
export function viewerGeometry(page: Page): Promise<{ image: Box; viewport: Box; window: Box; pageSize: [number, number]; cells: Array<{ table: number; row: number; col: number; box: Box }> }> {
  return page.evaluate(() => {
    const doc = (globalThis as any).document;
    const box = (el: any): Box => {
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: r.height };
    };
    const vb = doc.querySelector('svg.outlines').getAttribute('viewBox').split(' ').map(Number);
    return {
      image: box(doc.querySelector('[data-test=page-image]')),
      viewport: box(doc.querySelector('[data-test=page-viewport]')),
      window: { x: 0, y: 0, width: doc.documentElement.clientWidth, height: doc.documentElement.clientHeight },
      pageSize: [vb[2], vb[3]] as [number, number],
      cells: [...doc.querySelectorAll('[data-test=table-outline] rect.cell')].map((r: any) => ({ table: Number(r.parentNode.getAttribute('data-index')), row: Number(r.getAttribute('data-row')), col: Number(r.getAttribute('data-col')), box: box(r) })),
    };
  });
}
