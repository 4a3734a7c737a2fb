/**
 * Small dense linear systems (a homography's eight unknowns, a light surface's six), solved by
 * Gauss–Jordan elimination with partial pivoting.
 */

/**
 * The solution of the square system whose rows are `a` (n rows of n coefficients and the right-hand
 * side; changed in place); null where a pivot is smaller than `minPivot` (a singular system).
 */
export function solveLinear(a: number[][], minPivot = 0): number[] | null {
  const n = a.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    if (Math.abs(a[p][c]) < minPivot) return null;
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r][c] / a[c][c];
      for (let k = c; k <= n; k++) a[r][k] -= f * a[c][k];
    }
  }
  return a.map((row, i) => row[n] / row[i]);
}
