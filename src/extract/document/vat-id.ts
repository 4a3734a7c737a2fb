/**
 * Check digits of VAT identification numbers: each country that prints one computes it from the
 * other digits, so a misread digit almost always breaks it. Countries whose numbers carry no
 * public check (or whose forms vary too much) are not judged.
 */

const digits = (s: string) => [...s].map(Number);
const weighted = (s: string, weights: number[]) => digits(s).reduce((sum, d, i) => sum + d * weights[i]!, 0);

/** Luhn's sum over all of `s` (the last digit is the check digit) is a multiple of 10. */
function luhn(s: string): boolean {
  let sum = 0;
  digits(s)
    .reverse()
    .forEach((d, i) => {
      const v = i % 2 ? d * 2 : d;
      sum += v > 9 ? v - 9 : v;
    });
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10 (Germany's Umsatzsteuer-Identifikationsnummer). */
function mod11x10(s: string): boolean {
  let p = 10;
  for (const d of digits(s.slice(0, -1))) {
    const t = (d + p) % 10 || 10;
    p = (2 * t) % 11;
  }
  return (11 - p) % 10 === Number(s.at(-1));
}

/** `(checks, form)` per country: the number after the country code, and its check. */
const CHECKS: Record<string, [RegExp, (n: string) => boolean]> = {
  FR: [/^\d{11}$/, (n) => Number(n.slice(0, 2)) === (12 + 3 * (Number(n.slice(2)) % 97)) % 97],
  DE: [/^\d{9}$/, mod11x10],
  IT: [/^\d{11}$/, luhn],
  BE: [/^[01]\d{9}$/, (n) => 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8))],
  NL: [
    /^\d{9}B\d{2}$/,
    (n) => {
      const sum = weighted(n.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]);
      if (sum % 11 !== 10 && sum % 11 === Number(n[8])) return true;
      // Sole traders' numbers since 2020: ISO 7064 MOD 97-10 over "NL" and the number.
      const text = `NL${n}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
      let rest = 0;
      for (const d of text) rest = (rest * 10 + Number(d)) % 97;
      return rest === 1;
    },
  ],
  AT: [
    /^U\d{8}$/,
    (n) => {
      const sum = digits(n.slice(1, 8)).reduce((s, d, i) => s + (i % 2 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d), 0);
      return (10 - ((sum + 4) % 10)) % 10 === Number(n[8]);
    },
  ],
  DK: [/^\d{8}$/, (n) => weighted(n, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0],
  FI: [
    /^\d{8}$/,
    (n) => {
      const r = weighted(n.slice(0, 7), [7, 9, 10, 5, 8, 4, 2]) % 11;
      return r !== 1 && (r === 0 ? 0 : 11 - r) === Number(n[7]);
    },
  ],
  PL: [/^\d{10}$/, (n) => weighted(n.slice(0, 9), [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(n[9])],
  PT: [/^\d{9}$/, (n) => (11 - (weighted(n.slice(0, 8), [9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 11 % 10 === Number(n[8])],
  LU: [/^\d{8}$/, (n) => Number(n.slice(0, 6)) % 89 === Number(n.slice(6))],
  SE: [/^\d{10}01$/, (n) => luhn(n.slice(0, 10))],
  GB: [
    /^\d{9}$/,
    (n) => {
      const sum = weighted(n.slice(0, 7), [8, 7, 6, 5, 4, 3, 2]) + Number(n.slice(7));
      return sum % 97 === 0 || (sum + 55) % 97 === 0;
    },
  ],
};

/**
 * Whether a VAT id's check digits agree: true or false for a country whose form and check are
 * known and whose number has that form, null otherwise (another country, another kind of id,
 * or letters where the form has them, as France's older keys).
 */
export function vatIdChecks(text: string): boolean | null {
  const compact = text.replace(/[\s.\-/]/g, '').toUpperCase();
  const m = /^([A-Z]{2})([0-9A-Z]+)$/.exec(compact);
  const check = m ? CHECKS[m[1]!] : undefined;
  if (!m || !check || !check[0].test(m[2]!)) return null;
  return check[1](m[2]!);
}
