// GET /v1/documents/{id}/pages/{n}.png on real PDFs and images, through the real rendering thread.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openApi, type ApiHarness } from './harness.js';
import { icdarPdf, truncatedPdf } from '../e2e/fixtures.js';
import { REPO_ROOT } from '../paths.js';

const IMAGES = join(REPO_ROOT, 'test/fixtures/images');

describe('page images', () => {
  let h: ApiHarness;
  let key: string;
  const ids: Record<string, string> = {};
  const auth = () => ({ authorization: `Bearer ${key}` });
  const get = (url: string, headers = auth()) => h.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    h = await openApi();
    key = await h.key('alice');
    const files = {
      'eu-001.pdf': icdarPdf('eu-001'),
      'grid-clean.png': readFileSync(join(IMAGES, 'grid-clean.png')),
      'grid-exif6.jpg': readFileSync(join(IMAGES, 'grid-exif6.jpg')),
      'two-page.tiff': readFileSync(join(IMAGES, 'two-page.tiff')),
      'cut.pdf': truncatedPdf(),
    };
    const body = await multipart(Object.entries(files).map(([name, bytes]) => ({ name, bytes })));
    const res = await h.app.inject({ method: 'POST', url: '/v1/batches/pages/documents', headers: { ...auth(), ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    for (const d of res.json().documents) ids[d.filename] = d.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('renders a PDF page at the asked width, with the page size in PDF points, and serves it again from the cache', async () => {
    const first = await get(`/v1/documents/${ids['eu-001.pdf']}/pages/1.png?width=600`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const pdf = await PDFDocument.load(icdarPdf('eu-001'));
    const { width: pw, height: ph } = pdf.getPage(0).getSize();
    expect(Number(first.headers['x-page-width'])).toBeCloseTo(pw, 3);
    expect(Number(first.headers['x-page-height'])).toBeCloseTo(ph, 3);
    expect(Number(first.headers['x-page-count'])).toBe(pdf.getPageCount());
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(600);
    expect(meta.height).toBe(Math.round((600 * ph) / pw));
    // A page with text: dark ink on a white page.
    const stats = await sharp(first.rawPayload).greyscale().stats();
    expect(stats.channels[0].min).toBeLessThan(80);
    expect(stats.channels[0].max).toBe(255);
    expect(first.headers['x-cache']).toBe('miss');
    const again = await get(`/v1/documents/${ids['eu-001.pdf']}/pages/1.png?width=600`);
    expect(again.headers['x-cache']).toBe('hit');
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
  });

  it('renders an image page: its pixels scaled, in the orientation the user sees', async () => {
    const bytes = readFileSync(join(IMAGES, 'grid-clean.png'));
    const orig = await sharp(bytes).metadata();
    const res = await get(`/v1/documents/${ids['grid-clean.png']}/pages/1.png?width=400`);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-page-width'])).toBe(orig.width);
    expect(Number(res.headers['x-page-height'])).toBe(orig.height);
    const got = await sharp(res.rawPayload).greyscale().raw().toBuffer({ resolveWithObject: true });
    const want = await sharp(bytes).resize(got.info.width, got.info.height, { fit: 'fill' }).greyscale().raw().toBuffer();
    expect(got.info.width).toBe(400);
    let diff = 0;
    for (let i = 0; i < want.length; i++) diff += Math.abs(want[i] - got.data[i]);
    expect(diff / want.length).toBeLessThan(2);

    // EXIF orientation 6: the page is the picture turned upright, so width and height swap.
    const exif = await sharp(readFileSync(join(IMAGES, 'grid-exif6.jpg'))).metadata();
    expect(exif.orientation).toBe(6);
    const turned = await get(`/v1/documents/${ids['grid-exif6.jpg']}/pages/1.png?width=300`);
    expect(Number(turned.headers['x-page-width'])).toBe(exif.height);
    expect(Number(turned.headers['x-page-height'])).toBe(exif.width);
    expect((await sharp(turned.rawPayload).metadata()).height).toBe(Math.round((300 * exif.width!) / exif.height!));
  });

  it('renders the second page of a multi-page TIFF, and answers 404 past the last page', async () => {
    const p2 = await get(`/v1/documents/${ids['two-page.tiff']}/pages/2.png?width=200`);
    expect(p2.statusCode).toBe(200);
    expect(p2.headers['x-page-count']).toBe('2');
    const p3 = await get(`/v1/documents/${ids['two-page.tiff']}/pages/3.png`);
    expect(p3.statusCode).toBe(404);
    expect(p3.json().error).toMatchObject({ code: 'not_found', details: { page: 3 } });
    expect(p3.json().error.message).toContain('2 pages');
  });

  it('answers a file that cannot be rendered, bad widths, other accounts and missing keys with the error envelope', async () => {
    const cut = await get(`/v1/documents/${ids['cut.pdf']}/pages/1.png`);
    expect(cut.statusCode).toBe(422);
    expect(cut.json().error.code).toBe('unprocessable');
    expect(cut.json().error.details.processing_error.code).toBe('corrupt_file');

    for (const q of ['width=10', 'width=5000', 'width=abc']) {
      const bad = await get(`/v1/documents/${ids['grid-clean.png']}/pages/1.png?${q}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid_request');
    }
    const page0 = await get(`/v1/documents/${ids['grid-clean.png']}/pages/0.png`);
    expect(page0.statusCode).toBe(400);

    const bob = await h.key('bob');
    const foreign = await get(`/v1/documents/${ids['grid-clean.png']}/pages/1.png`, { authorization: `Bearer ${bob}` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('document_not_found');
    const anonymous = await h.app.inject({ method: 'GET', url: `/v1/documents/${ids['grid-clean.png']}/pages/1.png` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthorized');
  });

  it('is in the OpenAPI document with its width limits', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/documents/{id}/pages/{n}.png']?.get;
    expect(op).toBeDefined();
    const width = op.parameters.find((p: { name: string }) => p.name === 'width');
    expect(width.schema).toMatchObject({ minimum: 64, maximum: 2400, default: 1200 });
    expect(Object.keys(op.responses['200'].content)).toEqual(['image/png']);
    expect(Object.keys(op.responses['200'].headers)).toEqual(['x-page-width', 'x-page-height', 'x-page-count']);
  });
});
