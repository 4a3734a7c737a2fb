// PDF form fields (API.md §4c): text fields, checkboxes and a radio group of a form made here
// with pdf-lib become key-value pairs with source "form", keyed by tooltip, else by name. pdf.js
// reads a tooltip (TU) from the widget's dictionary, as in a field merged with its one widget
// (how form editors write a single-widget field); pdf-lib keeps widgets apart, so the tests put
// TU there. pdf-lib names a radio button's on-states by index (its labels go to /Opt).
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/extract/index.js';

async function filledForm(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Supplier registration', { x: 50, y: 780, size: 16, font });
  const form = doc.getForm();
  const name = form.createTextField('company');
  name.setText('Hafenbau AG');
  name.addToPage(page, { x: 200, y: 700, width: 200, height: 20 });
  name.acroField.getWidgets()[0]!.dict.set(PDFName.of('TU'), PDFString.of('Company name'));
  const vat = form.createTextField('vat_id');
  vat.setText('DE123456789');
  vat.addToPage(page, { x: 200, y: 670, width: 200, height: 20 });
  form.createTextField('left_empty').addToPage(page, { x: 200, y: 640, width: 200, height: 20 });
  const terms = form.createCheckBox('terms');
  terms.addToPage(page, { x: 200, y: 600, width: 14, height: 14 });
  terms.check();
  terms.acroField.getWidgets()[0]!.dict.set(PDFName.of('TU'), PDFString.of('I accept the terms'));
  form.createCheckBox('newsletter').addToPage(page, { x: 200, y: 570, width: 14, height: 14 });
  const pay = form.createRadioGroup('payment');
  pay.addOptionToPage('Card', page, { x: 200, y: 530, width: 14, height: 14 });
  pay.addOptionToPage('Invoice', page, { x: 260, y: 530, width: 14, height: 14 });
  pay.select('Invoice');
  return doc.save();
}

describe('PDF forms', () => {
  it('reads text fields, a ticked and an empty checkbox and a radio group as pairs', async () => {
    const r = await extractDocument(await filledForm());
    const form = r.key_value_pairs.filter((p) => p.source === 'form');
    const view = form.map((p) => [p.key.text, p.value.text, p.value.selected]);
    expect(view).toEqual(
      expect.arrayContaining([
        ['Company name', 'Hafenbau AG', undefined],
        ['vat_id', 'DE123456789', undefined],
        ['I accept the terms', 'Yes', true],
        ['newsletter', 'Yes', false],
        ['payment', '0', false],
        ['payment', '1', true],
      ]),
    );
    expect(form).toHaveLength(6);
    for (const p of form) {
      expect(p).toMatchObject({ page: 1, confidence: 1 });
      // Widget boxes in page units, origin top-left: the company field 120–142 pt from the top.
      expect(p.bbox[2]).toBeGreaterThan(p.bbox[0]);
    }
    form[0]!.bbox.forEach((v, i) => expect(Math.abs(v - [200, 122, 400, 142][i]!)).toBeLessThan(2));
    // A form's pairs are left out with embedded: "ignore".
    const page = await extractDocument(await filledForm(), { embedded: 'ignore' });
    expect(page.key_value_pairs.some((p) => p.source === 'form')).toBe(false);
  });
});
