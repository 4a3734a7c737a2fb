/**
 * pdf.js for the engine: every value the engine takes from pdf.js comes from here. pdf.js and
 * its worker (which runs in this thread under Node, found on `globalThis.pdfjsWorker` once its
 * module is loaded) are loaded here, so this module is imported only through `pdfjs()`
 * (`load.ts`), when a PDF is read. Then the builtins their core-js polyfills replaced are
 * put back: on Node 20 (V8 11) core-js takes the native `Array.prototype.push` for broken (the
 * error a push onto a frozen length throws) and installs its own, written in JavaScript and six
 * times slower, and replaces `JSON.stringify` and `JSON.parse` for `JSON.rawJSON`, which nothing
 * here uses, three times slower. Every push and JSON text of the process, pdf.js's own and the
 * engine's, paid for them.
 */
import { restoreNatives } from './natives.js';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';

restoreNatives();

export const { getDocument, OPS } = pdfjs;

/** Operators that paint an image into the unit square of the current transform. */
export const IMAGE_OPS: ReadonlySet<number> = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject, OPS.paintImageXObjectRepeat]);
/** `constructPath` paint operators that fill, and those that stroke. */
export const FILL_OPS: ReadonlySet<number> = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
export const STROKE_OPS: ReadonlySet<number> = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
