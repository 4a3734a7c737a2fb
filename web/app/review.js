// Review: which documents need a person's eyes first, the order a reviewer goes through a batch
// in, and the corrections the document view saves (PUT /v1/documents/ID/corrections, merged
// over the earlier ones field by field and cell by cell).
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api.js';
import { MONEY_FIELDS } from './format.js';

// Below 0.7 the engine's fields were right 45–73 % of the time on the dev sets, above it 88 % and
// more (the calibration table of docs/benchmarks.md).
export const REVIEW_BELOW = 0.7;

/** A succeeded document's fields that a person has not corrected, with their names (custom ones as `custom.NAME`). */
function uncorrectedFields(doc) {
  const f = doc.fields ?? {};
  const own = Object.entries(f).filter(([k, v]) => k !== 'custom' && v);
  const custom = Object.entries(f.custom ?? {}).filter(([, v]) => v).map(([k, v]) => [`custom.${k}`, v]);
  return [...own, ...custom].filter(([, v]) => !v.corrected);
}

/** The names of a document's fields below REVIEW_BELOW that nobody corrected. */
export function doubtfulFields(doc) {
  if (doc.status !== 'succeeded') return [];
  return uncorrectedFields(doc).filter(([, v]) => v.confidence < REVIEW_BELOW).map(([k]) => k);
}

/** A flag or warning that says two readings disagree (`total_mismatch`, `amount_mismatch`, `embedded_mismatch`); `low_confidence` is the fields' and cells' own confidence, not a check. */
const isCheck = (code) => /_mismatch$/.test(code);

/** The engine's checks that failed (a total or an item that does not add up, a page that disagrees with its XML), until a person corrects the total. */
export function failedChecks(doc) {
  if (doc.status !== 'succeeded' || doc.fields?.total?.corrected) return [];
  const codes = [...(doc.totals?.flags ?? []), ...(doc.line_items ?? []).flatMap((i) => i.flags ?? []), ...(doc.warnings ?? []).map((w) => w.code)];
  return [...new Set(codes.filter(isCheck))];
}

/** What a person should look at on a document: its doubtful fields and failed checks. */
export function reviewNeeds(doc) {
  return { fields: doubtfulFields(doc), checks: failedChecks(doc) };
}

/** "2 fields, 1 check" */
export function needsText({ fields, checks }) {
  const n = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
  return [fields.length && n(fields.length, 'field'), checks.length && n(checks.length, 'check')].filter(Boolean).join(', ');
}

/** Whether the document needs review, is done (corrected or accepted), or was read surely. */
export function reviewStateOf(doc) {
  if (doc.status !== 'succeeded') return null;
  const needs = reviewNeeds(doc);
  if (needs.fields.length || needs.checks.length) return 'needs';
  return Object.values(doc.fields ?? {}).some((f) => f?.corrected) ? 'reviewed' : 'sure';
}

const lowest = (doc) => Math.min(1, ...uncorrectedFields(doc).map(([, v]) => v.confidence));

/**
 * The order a reviewer goes through: the documents that need review first, the least sure
 * first; then the other succeeded ones; then those without results; by file name within each.
 */
export function reviewOrder(docs) {
  const rank = (d) => (d.status !== 'succeeded' ? 2 : reviewStateOf(d) === 'needs' ? 0 : 1);
  return [...docs].sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? lowest(a) - lowest(b) : 0) || a.filename.localeCompare(b.filename));
}

// The last order shown per batch: a reviewer's next document stays the one the batch page listed
// after this one, even when correcting it moved it down the list.
const orders = new Map();

/** Keeps the batch's review order as the batch page shows it. */
export function rememberOrder(batchName, ordered) {
  orders.set(batchName, ordered.map((d) => d.id));
}

/** Every document of the batch (its results pages, followed to the end). */
export async function loadDocuments(api, name) {
  const docs = [];
  let cursor;
  do {
    const page = await api.resultsPage(name, { limit: 200, cursor });
    docs.push(...page.documents);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return docs;
}

/** The batch's review order (ids): the one the batch page showed, else read now. */
export function useBatchOrder(api, batchName) {
  const [ids, setIds] = useState(() => orders.get(batchName) ?? null);
  useEffect(() => {
    if (!batchName || orders.has(batchName)) return undefined;
    let live = true;
    loadDocuments(api, batchName).then(
      (docs) => {
        rememberOrder(batchName, reviewOrder(docs));
        if (live) setIds(orders.get(batchName));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, batchName]);
  return ids ?? orders.get(batchName) ?? null;
}

/** A number as a person types it: `1,234.50`, `1.234,50`, `1234.5`, `-3`; NaN when it is none. */
export function parseAmount(text) {
  let t = text.replace(/[\s\u00a0'’]/g, '').replace(/^[^\d-]+|[^\d]+$/g, '');
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) t = lastComma > lastDot ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  else if (lastComma >= 0) t = /,\d{1,2}$/.test(t) && (t.match(/,/g) ?? []).length === 1 ? t.replace(',', '.') : t.replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

const NUMBER_ITEM_KEYS = new Set(['quantity', 'unit_price', 'amount']);

/** A field's value as the API takes it: null for an empty input, numbers for amounts, the text else. */
function fieldValue(name, text) {
  if (text === '') return null;
  if (!MONEY_FIELDS.has(name)) return text;
  const n = parseAmount(text);
  if (Number.isNaN(n)) throw new Error(`${name.replace(/_/g, ' ')}: “${text}” is not an amount`);
  return n;
}

/**
 * The document view's review state: the value being edited (its key and box, for the page's
 * highlight), where a clicked word goes (`sink`: the input being edited), the engine's own
 * reading (to mark what was corrected), and the saves.
 */
export function useReview(api, doc, setDoc) {
  const [active, setActive] = useState(null);
  const [status, setStatus] = useState(null);
  const [extracted, setExtracted] = useState(null);
  const sink = useRef(null);
  const focusKey = useRef(null);
  const done = doc?.status === 'succeeded';

  useEffect(() => {
    if (!done) return undefined;
    let live = true;
    api.extractedResults(doc.id).then((r) => live && setExtracted(r), () => {});
    return () => {
      live = false;
    };
  }, [api, doc?.id, done]);

  const save = async (what, correction) => {
    setStatus({ saving: true, text: `Saving ${what}…` });
    try {
      setDoc(await api.correct(doc.id, correction));
      setStatus({ saved: true, text: `Saved ${what}.` });
    } catch (err) {
      setStatus({ error: true, text: `${what} was not saved: ${errorText(err)}` });
    }
  };
  const fail = (err) => setStatus({ error: true, text: err.message });
  function saveField(name, text, accepted = false) {
    let value;
    try {
      value = fieldValue(name, text);
    } catch (err) {
      return fail(err);
    }
    const fields = name.startsWith('custom.') ? { custom: { [name.slice(7)]: value } } : { [name]: value };
    return save(`${name.replace(/^custom\./, '').replace(/_/g, ' ')}${accepted ? ' (accepted)' : ''}`, { fields });
  }

  return {
    active,
    setActive,
    status,
    extracted,
    sink,
    focusKey,
    doubtful: doc ? doubtfulFields(doc) : [],
    saveField,
    /** Confirms a field's value as right: a correction with the same value. */
    acceptField: (name, text) => saveField(name, text, true),
    saveCell(index, row, col, text) {
      return save(`table ${index + 1} cell ${row + 1}, ${col + 1}`, { tables: [{ index, cells: [{ row, col, text }] }] });
    },
    saveItem(i, key, text) {
      let value = text === '' ? null : text;
      if (value !== null && NUMBER_ITEM_KEYS.has(key)) {
        value = parseAmount(text);
        if (Number.isNaN(value)) return fail(new Error(`line ${i + 1} ${key.replace('_', ' ')}: “${text}” is not a number`));
      }
      if (key === 'currency' && value) value = value.toUpperCase();
      const items = doc.line_items.map((it, k) => (k === i ? { ...it, [key]: value } : it));
      return save(`line ${i + 1} ${key.replace('_', ' ')}`, { line_items: items });
    },
  };
}

/** True when `a` and `b` differ as values (a number and its text alike are the same). */
export const differs = (a, b) => (a ?? null) !== (b ?? null) && String(a ?? '') !== String(b ?? '');
