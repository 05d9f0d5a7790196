// z-mean composite: z-score each column across rows, then average each row's z-scores.
//
// SD convention: the sample SD with n - 1 in the denominator (R's scale() and sd(), pandas'
// default), so a composite computed here equals rowMeans(scale(x)) in R. A missing value (NaN) in
// a cell is left out of that column's mean and SD and out of that row's average; a row with no
// values gets NaN. A constant column carries no information about who is more expert and is an
// error rather than a silent division by zero.

export interface ZMeanComposite {
  /** z[i][j]: row i's z-score on column j (NaN where the value was missing). */
  z: number[][];
  /** The row means of z. */
  composite: number[];
  mean: number[];
  sd: number[];
}

export function zScores(values: readonly number[]): { z: number[]; mean: number; sd: number } {
  const present = values.filter((v) => Number.isFinite(v));
  const n = present.length;
  if (n < 2) throw new Error(`a z-score needs at least 2 values, got ${n}`);
  const mean = present.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(present.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1));
  if (!(sd > 0)) throw new Error('every value is the same, so it has no spread to standardise');
  return { z: values.map((v) => (Number.isFinite(v) ? (v - mean) / sd : NaN)), mean, sd };
}

export function zMeanComposite(matrix: readonly (readonly number[])[]): ZMeanComposite {
  const n = matrix.length;
  const p = matrix[0]?.length ?? 0;
  const z: number[][] = Array.from({ length: n }, () => new Array<number>(p).fill(NaN));
  const mean: number[] = [], sd: number[] = [];
  for (let j = 0; j < p; j++) {
    let col: ReturnType<typeof zScores>;
    try {
      col = zScores(matrix.map((row) => row[j]));
    } catch (err) {
      throw new Error(`measure ${j + 1} of the composite: ${(err as Error).message}`);
    }
    mean.push(col.mean); sd.push(col.sd);
    for (let i = 0; i < n; i++) z[i][j] = col.z[i];
  }
  const composite = z.map((row) => {
    const present = row.filter((v) => Number.isFinite(v));
    return present.length ? present.reduce((s, v) => s + v, 0) / present.length : NaN;
  });
  return { z, composite, mean, sd };
}
