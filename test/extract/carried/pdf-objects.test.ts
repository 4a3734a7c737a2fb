// The bounded reader of a PDF's objects (carried/pdf-objects.ts) on files written here: values
// of every kind, object streams, the later of two definitions, and hostile files that must end
// fast (a keyword repeated for megabytes, an object stream that inflates beyond its budget,
// nesting beyond its depth) or not be read at all (an encrypted file).
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PdfName, PdfObjects, PdfRef, PdfString, textOf } from '../../../src/extract/carried/pdf-objects.js';

const pdf = (...parts: Array<string | Buffer>) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p))));

/** An object stream holding `objects` (number → text), as object `num`. */
function objectStream(num: number, objects: Array<[number, string]>): Buffer {
  let offset = 0;
  const heads: string[] = [];
  for (const [n, text] of objects) {
    heads.push(`${n} ${offset}`);
    offset += text.length + 1;
  }
  const head = heads.join(' ') + '\n';
  const data = deflateSync(Buffer.from(head + objects.map(([, t]) => t + '\n').join(''), 'latin1'));
  return Buffer.concat([Buffer.from(`${num} 0 obj\n<< /Type /ObjStm /N ${objects.length} /First ${head.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n')]);
}

describe('PDF objects', () => {
  it('reads dictionaries, arrays, strings, names, numbers and references', () => {
    const objects = PdfObjects.read(pdf('%PDF-1.7\n', '4 0 obj\n<< /T (a \\(b\\) (c) \\101\\n) /TU <FEFF00DC0062> /A#20B /B /K [1 -2.5 3 0 R true null] /D << /X /Y >> >>\nendobj\n'))!;
    const d = objects.get(4) as Map<string, unknown>;
    expect(textOf(d.get('T') as PdfString)).toBe('a (b) (c) A\n');
    expect(textOf(d.get('TU') as PdfString)).toBe('Üb');
    expect((d.get('A B') as PdfName).name).toBe('B');
    expect(d.get('K')).toEqual([1, -2.5, new PdfRef(3, 0), true, null]);
    expect(((d.get('D') as Map<string, unknown>).get('X') as PdfName).name).toBe('Y');
    // PDFDocEncoding: 0x80 is a bullet, 0xA0 the euro sign.
    expect(textOf(new PdfString('\x80 \xa0 \xe9'))).toBe('• € é');
    expect(objects.get(5)).toBeUndefined();
  });

  it('reads object streams, and the later of two definitions', () => {
    const file = pdf('%PDF-1.7\n', objectStream(9, [[4, '<< /TU (old) >>'], [6, '(six)']]), '4 0 obj\n<< /TU (new) >>\nendobj\n', objectStream(10, [[6, '(seven)']]));
    const objects = PdfObjects.read(file)!;
    expect(textOf((objects.get(4) as Map<string, PdfString>).get('TU')!)).toBe('new');
    expect(textOf(objects.get(6) as PdfString)).toBe('seven');
  });

  it('ends fast on hostile files and reads no encrypted one', () => {
    // 16 MB of object headers, digits and streams never ended (the time limits leave room for a
    // loaded machine: each read takes well under a second alone).
    let started = performance.now();
    PdfObjects.read(pdf('%PDF-1.7\n', '1 0 obj '.repeat(1_000_000), '9'.repeat(5_000_000), ' 0 obj stream\n'.repeat(200_000)));
    expect(performance.now() - started).toBeLessThan(5000);
    // 40 MiB of zeros in an object stream: over the 32 MiB budget, so not read.
    const bomb = deflateSync(Buffer.alloc(40 << 20));
    started = performance.now();
    const objects = PdfObjects.read(pdf('%PDF-1.7\n', `3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\n`, bomb, '\nendstream\nendobj\n', `4 0 obj\n${'['.repeat(100_000)}\nendobj\n`))!;
    expect(objects.get(3)).toBeInstanceOf(Map);
    expect(objects.get(4)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5000);
    expect(PdfObjects.read(pdf('%PDF-1.7\n1 0 obj\n<< /TU (x) >>\nendobj\ntrailer << /Encrypt 2 0 R >>\n'))).toBeNull();
  });
});
