import { describe, expect, it } from 'vitest';
import { acrossLines, impossibleDate, lineBoxes, possibleDate, secondLook, unreadGroups } from '../../../src/extract/raster/rescue.js';
import type { OcrWord } from '../../../src/extract/raster/tsv.js';

const word = (text: string, confidence: number, x0 = 100, y0 = 50, x1 = 300, y1 = 74): OcrWord => ({ text, confidence, x0, y0, x1, y1, lineHeight: 24, image: 1 });

describe('second look at impossible dates', () => {
  it('tells dates no calendar has (a month above 12, a mark for a digit) from possible ones', () => {
    // Misreadings of faded receipt dates (sroie-dev): 29/10/2017 as 29/18/2017, 03/02/2018 as 03/0:/2018.
    for (const t of ['29/18/2017', '03/0:/2018', '45.13.2020', '32-13-18']) expect(impossibleDate(t), t).toBe(true);
    // Either order fits: 12/31/2018 is month-first, 31/12/2018 day-first.
    for (const t of ['29/10/2017', '12/31/2018', '07-02-17', ':28/04/18', 'Date:24/07/2017']) expect(impossibleDate(t), t).toBe(false);
    // Not a date at all: amounts, phone numbers, two-part figures.
    for (const t of ['12.60', '03-77343662', '1706/2018', '2005/06']) expect([impossibleDate(t), possibleDate(t)], t).toEqual([false, false]);
    expect(possibleDate('03/02/2018')).toBe(true);
  });

  it('reads an impossible date again, however sure, and takes a possible reading even when unsure', async () => {
    const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
    const crops: number[] = [];
    const read = async (c: { width: number }[]) => {
      crops.push(c.length);
      // The enlarged crop reads the right digits, with the confidence Tesseract gave (0.45).
      return c.map(() => [word('03/02/2018', 0.45, 10, 10, 250, 40)]);
    };
    const { words } = await secondLook(img, [], [word('03/0:/2018', 0.93), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, read);
    expect(crops).toEqual([1]);
    expect(words.map((w) => w.text).sort()).toEqual(['03/02/2018', 'TOTAL']);
    // A possible date stays unless a surer reading comes: an unsure re-reading does not replace it.
    const kept = await secondLook(img, [], [word('03/02/2018', 0.55), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, async (c) => c.map(() => [word('08/02/2018', 0.45, 10, 10, 250, 40)]));
    expect(kept.words.map((w) => w.text).sort()).toEqual(['03/02/2018', 'TOTAL']);
    // A re-reading that lost a digit is no fix of the impossible date it overlaps.
    const short = await secondLook(img, [], [word('83-02-16', 0.9), word('TOTAL', 0.97, 100, 90, 180, 114)], 24, async (c) => c.map(() => [word('5-02-16', 0.45, 10, 10, 250, 40)]));
    expect(short.words.map((w) => w.text).sort()).toEqual(['83-02-16', 'TOTAL']);
    // Nor does it replace a sure possible date it overlaps beside the impossible one.
    const both = await secondLook(img, [], [word('0:/02/2016', 0.9), word('03-02-16', 0.995, 120, 52, 280, 72)], 24, async (c) => c.map(() => [word('05/02/2016', 0.33, 10, 10, 250, 40)]));
    expect(both.words.map((w) => w.text).sort()).toEqual(['03-02-16', '0:/02/2016']);
  });
  it('reads a doubtful word again as a line where as one word it reads surely over part of its ink only', async () => {
    const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
    const modes: boolean[] = [];
    // A reader that notes whether each batch was read as lines, and reads every crop as `reply` says.
    const reader = (reply: (line: boolean) => OcrWord[]) => async (c: { width: number }[], _scale: number, line: boolean) => {
      modes.push(line);
      return c.map(() => reply(line));
    };
    // "1995-1996" over an erased rule: as one word, only "1995" (the crop's left third); as a line, both.
    const split = reader((line) => (line ? [word('1995', 0.97, 12, 14, 70, 36), word('1996', 0.97, 130, 14, 188, 36)] : [word('1995', 0.67, 12, 14, 70, 36)]));
    const { words } = await secondLook(img, [], [word('1995-1996', 0.46, 100, 50, 280, 72)], 24, split);
    expect(modes).toEqual([false, true]);
    expect(words.map((w) => w.text)).toEqual(['1995', '1996']);
    // A sure reading over the whole word is not read again.
    modes.length = 0;
    const whole = reader(() => [word('0,00%', 0.91, 12, 14, 190, 36)]);
    expect((await secondLook(img, [], [word('000%', 0.02, 100, 50, 280, 72)], 24, whole)).words.map((w) => w.text)).toEqual(['0,00%']);
    expect(modes).toEqual([false]);
    // Nor is an unsure reading: as a line it would read surer, not righter.
    modes.length = 0;
    const unsure = reader(() => [word('OLY.', 0.3, 12, 14, 190, 36)]);
    expect((await secondLook(img, [], [word('D.I.Y.', 0.55, 100, 50, 280, 72)], 24, unsure)).words.map((w) => w.text)).toEqual(['D.I.Y.']);
    expect(modes).toEqual([false]);
  });

  it('without the unsure words (`fast`), reads again only impossible dates', async () => {
    const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
    const crops: number[] = [];
    const read = async (c: { width: number }[]) => {
      crops.push(c.length);
      return c.map(() => [word('03/02/2018', 0.95, 10, 10, 250, 40)]);
    };
    // An unsure short word and a very unsure long one are read again by default, not here.
    const page = [word('03/0:/2018', 0.93), word('N', 0.82, 100, 90, 120, 114), word('Subtotaf', 0.41, 200, 90, 300, 114)];
    await secondLook(img, [], page, 24, read);
    await secondLook(img, [], page, 24, read, false);
    expect(crops).toEqual([3, 1]);
  });
});

describe('unread ink and neighbouring readings', () => {
  const img = { data: new Uint8Array(400 * 130).fill(255), width: 400, height: 130 };
  // One glyph 12 px high at x 300 on the line of a label read at x 100.
  const label = word('Cyprus', 0.95, 100, 50, 160, 62);
  const lone = [{ x0: 300, y0: 50, x1: 307, y1: 61 }];

  it('reads unread ink as a line, and as a word where the line reads one mark', async () => {
    const modes: boolean[] = [];
    // As a line "0" (as a word the fast model reads "oO"); tesseract.js reads a lone "4" as a line "A", as a word "4".
    const reader = (asLine: string, asWord: string) => async (c: { width: number }[], _scale: number, line: boolean) => {
      modes.push(line);
      return c.map(() => [word(line ? asLine : asWord, 0.93, 10, 10, 18, 22)]);
    };
    expect((await secondLook(img, lone, [label], 12, reader('0', 'oO'))).words.map((w) => w.text)).toEqual(['Cyprus', '0']);
    expect(modes).toEqual([true]);
    modes.length = 0;
    expect((await secondLook(img, lone, [label], 12, reader('A', '4'))).words.map((w) => w.text)).toEqual(['Cyprus', '4']);
    expect(modes).toEqual([true, false]);
    // One mark both ways (a hatched bar read "€"): no word. A lone letter stays a letter.
    expect((await secondLook(img, lone, [label], 12, reader('€', 'Q'))).words.map((w) => w.text)).toEqual(['Cyprus']);
    expect((await secondLook(img, lone, [label], 12, reader('n', 'Pos'))).words.map((w) => w.text)).toEqual(['Cyprus', 'n']);
  });

  it('keeps a reading that a neighbour\'s crop only reaches into', async () => {
    // "TOTAL" and "TTC" read unsure; each crop (enlarged 2×, 7 px of padding) reads its word
    // surer, TOTAL's box taking in the edge mark after it, over the first pixels of "TTC".
    const page = [word('TOTAL', 0.16, 100, 50, 160, 62), word('TTC', 0.16, 166, 50, 196, 62)];
    const read = async (c: { width: number }[]) =>
      c.map((_, i) => (i === 0 ? [word('‘TOTAL’', 0.64, 14, 14, 150, 38)] : [word('TTC', 0.69, 14, 14, 74, 38)]));
    const { words } = await secondLook(img, [], page, 12, read);
    expect(words.map((w) => w.text).sort()).toEqual(['TOTAL', 'TTC']);
  });
});

describe('words read across lines', () => {
  // Glyph blobs 12 px high: a line of `n` glyphs 8 px wide from x, top at y.
  const line = (x: number, y: number, n: number) => Array.from({ length: n }, (_, i) => ({ x0: x + i * 10, y0: y, x1: x + i * 10 + 7, y1: y + 11 }));

  it('tells a word over two lines of ink from a tall word of one line and from a sure one', () => {
    const blobs = [...line(100, 100, 5), ...line(100, 120, 5), ...line(300, 100, 4)];
    // "Croat" over "# ligne" and "C_FO:" (two lines, 0.26); a heading word in large type (one line of tall glyphs).
    const across = word('Croat', 0.26, 100, 100, 150, 132);
    const heading = word('INVOICE', 0.5, 300, 90, 340, 140);
    const big = [{ x0: 300, y0: 90, x1: 339, y1: 139 }];
    const sure = word('ligne', 0.95, 100, 100, 150, 132);
    const found = acrossLines([across, heading, sure], [...blobs, ...big], 12);
    expect([...found].map((w) => w.text)).toEqual(['Croat']);
    // Its two lines are read as two crops; pieces of one line side by side are one crop.
    const beside = word('sa74', 0.1, 152, 100, 180, 132);
    const more = [...blobs, ...line(152, 100, 3), ...line(152, 120, 3)];
    const boxes = lineBoxes([across, beside], more, 12);
    expect(boxes).toEqual([
      { x0: 100, y0: 100, x1: 179, y1: 111 },
      { x0: 100, y0: 120, x1: 179, y1: 131 },
    ]);
    // Letters beside a line's piece are read again with it ("Samp" + "le"); those a column's gap away are not.
    const withRest = [...more, ...line(182, 100, 2), ...line(260, 100, 4)];
    expect(lineBoxes([across, beside], withRest, 12)[0]).toEqual({ x0: 100, y0: 100, x1: 199, y1: 111 });
  });

  it('reads each line again and keeps the word where its lines read nothing surer', async () => {
    const img = { data: new Uint8Array(400 * 200).fill(255), width: 400, height: 200 };
    const blobs = [...line(100, 100, 5), ...line(100, 120, 5)];
    const asked: boolean[] = [];
    const read = async (c: { width: number }[], _scale: number, asLine: boolean) => {
      asked.push(asLine);
      return c.map((_, i) => (asLine ? [word(i === 0 ? '#ligne' : 'C_FO:', 0.9, 10, 10, 60, 22)] : []));
    };
    const { words } = await secondLook(img, blobs, [word('Croat', 0.26, 100, 100, 150, 132)], 12, read, false);
    expect(asked).toEqual([true]);
    expect(words.map((w) => w.text)).toEqual(['#ligne', 'C_FO:']);
    const kept = await secondLook(img, blobs, [word('Croat', 0.26, 100, 100, 150, 132)], 12, async (c) => c.map(() => [word('x', 0.3, 10, 10, 20, 22)]), false);
    expect(kept.words.map((w) => w.text)).toEqual(['Croat']);
  });
});

describe('unread ink groups', () => {
  // Glyphs 12 px high; a table of 60 rows, 20 px apart, whose labels were read and whose one
  // figure each (a lone digit at x 400) page layout analysis dropped.
  const blob = (x0: number, y0: number, w = 8, h = 12) => ({ x0, y0, x1: x0 + w - 1, y1: y0 + h - 1 });
  const labels = Array.from({ length: 60 }, (_, i) => ({ x0: 100, y0: 100 + 20 * i, x1: 180, y1: 114 + 20 * i }));
  const figures = Array.from({ length: 60 }, (_, i) => blob(400, 101 + 20 * i));
  it('reads every figure standing on a line of words read, past the cap for ink off the lines', () => {
    expect(unreadGroups(figures, labels, 12)).toHaveLength(60);
  });
  it('reads no more than the cap of ink off the lines of words read (a picture)', () => {
    const picture = Array.from({ length: 60 }, (_, i) => blob(600 + 30 * (i % 10), 2000 + 30 * Math.floor(i / 10)));
    const groups = unreadGroups([...figures.slice(0, 10), ...picture], labels, 12);
    expect(groups).toHaveLength(40);
    expect(groups.filter((g) => g.x0 === 400)).toHaveLength(10);
  });
  it('reads a figure with a decimal comma as one group, and a dropped column heading on a line of words read', () => {
    // "76,30" in 14 px glyphs: two digits, a comma 5 px high at the foot, two digits, 8 px apart
    // across the comma (a 150 dpi bank statement whose whole "Cargo" column layout analysis dropped).
    const row = [{ x0: 100, y0: 444, x1: 206, y1: 459 }];
    const digits = [blob(758, 444, 8, 15), blob(768, 444, 8, 15), blob(779, 455, 3, 5), blob(784, 444, 8, 15), blob(794, 444, 8, 15)];
    expect(unreadGroups(digits, row, 14)).toEqual([{ x0: 758, y0: 444, x1: 801, y1: 458 }]);
    // "Cargo", 53 px wide: on the line of a heading read it is read again; off every line it is not (a figure's label).
    const cargo = [blob(751, 365, 10, 15), blob(763, 368, 9, 12), blob(774, 368, 7, 12), blob(783, 368, 9, 16), blob(794, 368, 9, 12)];
    expect(unreadGroups(cargo, [{ x0: 114, y0: 365, x1: 166, y1: 380 }], 14)).toEqual([{ x0: 751, y0: 365, x1: 802, y1: 383 }]);
    expect(unreadGroups(cargo, [{ x0: 114, y0: 465, x1: 166, y1: 480 }], 14)).toEqual([]);
  });
});
