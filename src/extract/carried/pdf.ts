/**
 * What a PDF carries besides its pages: attached invoice XML (ZUGFeRD / Factur-X / XRechnung)
 * and AcroForm fields. Both come from pdf.js, on a document `carried/index.ts` opens once; a
 * field's tooltip that pdf.js does not give comes from the file's objects (`pdf-objects.ts`).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BBox, KeyValuePair } from '../types.js';
import { PdfObjects, PdfRef, PdfString, textOf, type PdfValue } from './pdf-objects.js';
import { isInvoiceXml } from './sniff.js';

/** The names ZUGFeRD 1, ZUGFeRD 2 / Factur-X and XRechnung give the invoice attachment. */
const INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];
/** No invoice XML comes near this; a larger attachment is not read (25 MiB, the upload limit). */
const MAX_XML_BYTES = 25 << 20;

export interface Attachment {
  filename: string;
  content: Uint8Array;
}

/**
 * The attached invoice XML: one of the standard names (any case), else any `.xml` attachment
 * whose root is an invoice. A standard name that does not look like XML is still returned, so
 * that reading it reports `embedded_invalid`.
 */
export async function invoiceAttachment(doc: PDFDocumentProxy): Promise<Attachment | null> {
  const all = (await doc.getAttachments().catch(() => null)) as Record<string, { filename?: string; content?: Uint8Array }> | null;
  if (!all) return null;
  const files = Object.values(all)
    .filter((a): a is Attachment => !!a?.content && typeof a.filename === 'string' && a.content.byteLength <= MAX_XML_BYTES)
    .map((a) => ({ filename: a.filename, content: a.content }));
  return (
    files.find((a) => INVOICE_NAMES.includes(a.filename.toLowerCase())) ??
    files.find((a) => /\.xml$/i.test(a.filename) && isInvoiceXml(a.content.subarray(0, 4096))) ??
    null
  );
}

interface WidgetAnnotation {
  /** The widget's object (`12R`, `12R3` with a generation), when it is one. */
  id?: string;
  subtype?: string;
  fieldType?: string;
  fieldName?: string;
  fieldValue?: unknown;
  alternativeText?: string;
  checkBox?: boolean;
  radioButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
  pushButton?: boolean;
  rect?: number[];
}

/**
 * The form's fields of `doc` (the PDF `bytes`) as pairs (`source: "form"`): the key is the field's
 * tooltip (`TU`) or else its name; text and choice fields give their value (empty ones are left
 * out), each checkbox and each radio button a pair with `selected`. Boxes are the widgets'
 * rectangles in page units.
 */
export async function formPairs(doc: PDFDocumentProxy, bytes: Uint8Array): Promise<KeyValuePair[]> {
  const objects = (await doc.getFieldObjects().catch(() => null)) as Record<string, Array<{ page?: number }>> | null;
  if (!objects) return [];
  const pages = [...new Set(Object.values(objects).flatMap((ws) => ws.map((w) => w.page ?? -1)))].filter((p) => p >= 0 && p < doc.numPages).sort((a, b) => a - b);
  const pairs: KeyValuePair[] = [];
  const tooltips = new FieldTooltips(bytes);
  for (const index of pages) {
    const page = await doc.getPage(index + 1);
    const viewport = page.getViewport({ scale: 1 });
    const annotations = (await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[];
    for (const a of annotations) {
      if (a.subtype !== 'Widget' || !a.fieldName || !a.rect || a.pushButton) continue;
      const r = viewport.convertToViewportRectangle(a.rect) as number[];
      const bbox: BBox = [Math.min(r[0]!, r[2]!), Math.min(r[1]!, r[3]!), Math.max(r[0]!, r[2]!), Math.max(r[1]!, r[3]!)];
      const label = a.alternativeText?.trim() || tooltips.of(a.id) || a.fieldName;
      const key = { text: label, bbox };
      if (a.checkBox || a.radioButton) {
        const on = a.checkBox ? a.exportValue : a.buttonValue;
        const selected = typeof a.fieldValue === 'string' && a.fieldValue !== 'Off' && (on === undefined || a.fieldValue === on);
        pairs.push({ key, value: { text: on && on !== 'Off' ? on : '', bbox, selected }, page: index + 1, bbox, confidence: 1, source: 'form' });
        continue;
      }
      const text = Array.isArray(a.fieldValue) ? a.fieldValue.join(', ') : typeof a.fieldValue === 'string' ? a.fieldValue : '';
      if (text.trim()) pairs.push({ key, value: { text, bbox }, page: index + 1, bbox, confidence: 1, source: 'form' });
    }
    page.cleanup();
  }
  return pairs;
}

/** How far up a widget's `/Parent` chain its field's tooltip is looked for. */
const MAX_PARENTS = 32;

/**
 * Tooltips pdf.js leaves out: it reads `TU` from a widget's own dictionary, but a field with
 * several widgets (every radio group, checkboxes and text fields shown twice) keeps them as kids
 * without a name, and its `TU` sits on the field, their parent. The file's objects are read once,
 * on the first widget that needs them; any fault gives no tooltip (the field's name is the key).
 */
class FieldTooltips {
  private objects: PdfObjects | null | undefined;

  constructor(private readonly bytes: Uint8Array) {}

  /**
   * The tooltip of the field widget `id` belongs to, when the widget is a kid without a name of
   * its own: the first `TU` up its `/Parent` chain, up to the field (the first dictionary with a
   * name, `T`). A group of fields above it is not asked: its tooltip names the group.
   */
  of(id: string | undefined): string | null {
    const num = /^(\d+)R\d*$/.exec(id ?? '')?.[1];
    if (num === undefined) return null;
    try {
      // Read once: null (an encrypted file, or a fault) stays null.
      if (this.objects === undefined) this.objects = PdfObjects.read(this.bytes);
      const objects = this.objects;
      if (!objects) return null;
      let dict = objects.get(Number(num));
      if (!(dict instanceof Map) || dict.has('T')) return null;
      const seen = new Set<number>([Number(num)]);
      for (let i = 0; i < MAX_PARENTS; i++) {
        const parent: PdfValue | undefined = dict.get('Parent');
        if (!(parent instanceof PdfRef) || seen.has(parent.num)) return null;
        seen.add(parent.num);
        dict = objects.get(parent.num);
        if (!(dict instanceof Map)) return null;
        const tu = objects.resolve(dict.get('TU'));
        const text = tu instanceof PdfString ? textOf(tu).trim() : '';
        if (text) return text;
        if (dict.has('T')) return null;
      }
    } catch {
      this.objects = null;
    }
    return null;
  }
}
