// Numbers as the document printed them: an amount keeps its currency's decimals (2,321.00 EUR,
// 1,999 JPY), whatever the browser's default number format would drop; grouping and the decimal
// sign follow the reader's locale.

const DEFAULT_DECIMALS = 2;

/** The minor-unit digits of an ISO 4217 currency (EUR 2, JPY 0, KWD 3); 2 when unknown or absent. */
export function currencyDecimals(currency) {
  if (!currency || !/^[A-Z]{3}$/.test(currency)) return DEFAULT_DECIMALS;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    return DEFAULT_DECIMALS;
  }
}

/** An amount with at least its currency's decimals, and more when the value has them (a unit price of 0.125). */
export function money(value, currency) {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value !== 'number') return String(value);
  const min = currencyDecimals(currency);
  return value.toLocaleString(undefined, { minimumFractionDigits: min, maximumFractionDigits: Math.max(min, 4) });
}

/** A count or other plain number: as many decimals as it has, up to 4. */
export function plain(value) {
  if (value === null || value === undefined || value === '') return '';
  return typeof value === 'number' ? value.toLocaleString(undefined, { maximumFractionDigits: 4 }) : String(value);
}

/** The fields that hold amounts of money. */
export const MONEY_FIELDS = new Set(['total', 'subtotal', 'tax', 'amount_due', 'opening_balance', 'closing_balance']);

/** The document's currency: its currency field, else its totals', else its first line item's. */
export function documentCurrency(doc) {
  const f = doc.fields?.currency?.value;
  return (typeof f === 'string' && f) || doc.totals?.currency || doc.line_items?.find((i) => i.currency)?.currency || null;
}

/** A field's value for display: amounts as money, the rest (codes, dates, names) exactly as read. */
export function fieldValue(name, field, currency) {
  return MONEY_FIELDS.has(name) ? money(field.value, currency) : String(field.value);
}
