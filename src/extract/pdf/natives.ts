/**
 * The builtins pdf.js's legacy build replaces, as Node gave them; evaluated before pdf.js is
 * (it is `pdfjs.ts`'s first import), so `restoreNatives` can put them back once pdf.js is loaded.
 */
const push = Array.prototype.push;
const { parse, stringify } = JSON;

/** `Array.prototype.push`, `JSON.parse` and `JSON.stringify` as they were before pdf.js loaded. */
export function restoreNatives(): void {
  Object.defineProperty(Array.prototype, 'push', { value: push, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(JSON, 'parse', { value: parse, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(JSON, 'stringify', { value: stringify, writable: true, enumerable: false, configurable: true });
}
