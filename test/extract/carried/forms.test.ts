// PDF form fields (API.md §4c): text fields, checkboxes and a radio group of a form made here
// with pdf-lib become key-value pairs with source "form", keyed by tooltip, else by name. A
// tooltip (TU) sits on a field merged with its one widget (how form editors write a single-widget
// field) or, when the widgets are kids of the field (every radio group; pdf-lib writes every
// field so), on the field above them. pdf-lib names a radio button's on-states by index (its
// labels go to /Opt).
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts, type PDFForm, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../src/extract/index.js';

/** A text field `name` holding `text`, 200 pt wide, `y` pt above the page's foot. */
function textField(form: PDFForm, page: PDFPage, name: string, text: string, y: number) {
  const field = form.createTextField(name);
  if (text) field.setText(text);
  field.addToPage(page, { x: 200, y, width: 200, height: 20 });
  return field;
}

/** A ticked checkbox `terms`, an empty one `newsletter` and a radio group `payment` (Invoice chosen). */
function buttons(form: PDFForm, page: PDFPage) {
  const terms = form.createCheckBox('terms');
  terms.addToPage(page, { x: 200, y: 600, width: 14, height: 14 });
  terms.check();
  form.createCheckBox('newsletter').addToPage(page, { x: 200, y: 570, width: 14, height: 14 });
  const pay = form.createRadioGroup('payment');
  pay.addOptionToPage('Card', page, { x: 200, y: 530, width: 14, height: 14 });
  pay.addOptionToPage('Invoice', page, { x: 260, y: 530, width: 14, height: 14 });
  pay.select('Invoice');
  return { terms, pay };
}

async function filledForm(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Supplier registration', { x: 50, y: 780, size: 16, font });
  const form = doc.getForm();
  textField(form, page, 'company', 'Hafenbau AG', 700).acroField.getWidgets()[0]!.dict.set(PDFName.of('TU'), PDFString.of('Company name'));
  textField(form, page, 'vat_id', 'DE123456789', 670);
  textField(form, page, 'left_empty', '', 640);
  buttons(form, page).terms.acroField.getWidgets()[0]!.dict.set(PDFName.of('TU'), PDFString.of('I accept the terms'));
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

/**
 * A form whose tooltips sit on the fields above their widgets (a checkbox, a radio group, the
 * latter in UTF-16), one on a text field's widget, one on a group above a field (which names the
 * group, not the field), and a checkbox without any; `doc` keeps it for an update.
 */
async function tooltipForm() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const form = doc.getForm();
  textField(form, page, 'company', 'Hafenbau AG', 700).acroField.getWidgets()[0]!.dict.set(PDFName.of('TU'), PDFString.of('Company name'));
  textField(form, page, 'customer.city', 'Hamburg', 670).acroField.getParent()!.dict.set(PDFName.of('TU'), PDFString.of('Customer'));
  const { terms, pay } = buttons(form, page);
  terms.acroField.dict.set(PDFName.of('TU'), PDFString.of('I accept the terms (AGB)'));
  pay.acroField.dict.set(PDFName.of('TU'), PDFHexString.fromText('Zahlungsart – Überweisung'));
  return { doc, pay };
}

const keys = async (bytes: Uint8Array) =>
  (await extractDocument(bytes)).key_value_pairs.filter((p) => p.source === 'form').map((p) => [p.key.text, p.value.text, p.value.selected]);

describe('PDF form tooltips', () => {
  const expected = (payment: string) => [
    ['Company name', 'Hafenbau AG', undefined],
    ['customer.city', 'Hamburg', undefined],
    ['I accept the terms (AGB)', 'Yes', true],
    ['newsletter', 'Yes', false],
    [payment, '0', false],
    [payment, '1', true],
  ];

  it("keys widgets that are kids of their field by the field's tooltip, in object streams or not", async () => {
    const { doc } = await tooltipForm();
    expect(await keys(await doc.save())).toEqual(expected('Zahlungsart – Überweisung'));
    expect(await keys(await doc.save({ useObjectStreams: false }))).toEqual(expected('Zahlungsart – Überweisung'));
  });

  it('reads the tooltip of an incremental update, and ends on a parent chain that loops', async () => {
    const { doc, pay } = await tooltipForm();
    const bytes = await doc.save({ useObjectStreams: false });
    /** `bytes` with the radio group's field written again after them as `dict` (an update). */
    const update = (dict: string) => {
      const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(Buffer.from(bytes).toString('latin1'))![1];
      const num = pay.acroField.ref.objectNumber;
      // pdf-lib ends the file with `%%EOF` and no line feed.
      const obj = `\n${num} 0 obj\n${dict}\nendobj\n`;
      const entry = `${String(bytes.length + 1).padStart(10, '0')} 00000 n \n`;
      const trailer = `<< /Size ${doc.context.largestObjectNumber + 1} /Root ${doc.context.trailerInfo.Root!.toString()} /Prev ${prev} >>`;
      const tail = `xref\n${num} 1\n${entry}trailer\n${trailer}\nstartxref\n${bytes.length + obj.length}\n%%EOF\n`;
      return new Uint8Array(Buffer.concat([Buffer.from(bytes), Buffer.from(obj + tail, 'latin1')]));
    };
    pay.acroField.dict.set(PDFName.of('TU'), PDFString.of('Payment method'));
    expect(await keys(update(pay.acroField.dict.toString()))).toEqual(expected('Payment method'));
    // A field that is its own parent, without a name: the reading ends (pdf.js names none of its
    // widgets, so they give no pairs) and the rest of the form is read as before.
    pay.acroField.dict.delete(PDFName.of('TU'));
    pay.acroField.dict.delete(PDFName.of('T'));
    pay.acroField.dict.set(PDFName.of('Parent'), pay.acroField.ref);
    expect(await keys(update(pay.acroField.dict.toString()))).toEqual(expected('').slice(0, 4));
  });
});
