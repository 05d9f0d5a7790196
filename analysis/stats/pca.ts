// Principal components of the correlation matrix (what R's prcomp(x, scale. = TRUE) computes), with a fixed sign convention.
//
// Each column is centred and divided by its sample SD (n - 1), so the components are the
// eigenvectors of the correlation matrix and the variances its eigenvalues; explained variance is
// eigenvalue / number of columns. An eigenvector's sign is arbitrary (prcomp's depends on LAPACK),
// so we flip each one so that its loadings sum to a positive number: "PC1 with all loadings
// positive" then reads the same whoever computes it. Scores are the standardized data times the
// loadings (prcomp's x). Rows with a missing value must be removed by the caller; a constant
// column has no correlation and is an error.
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

export interface PcaResult {
  /** Column means and sample SDs used to standardize. */
  center: number[];
  scale: number[];
  /** Eigenvalues of the correlation matrix, largest first (= prcomp's sdev^2). */
  variances: number[];
  /** Proportion of the total variance per component. */
  explained: number[];
  /** loadings[j][c]: loading of column j on component c (prcomp's rotation). */
  loadings: number[][];
  /** scores[i][c]: row i's score on component c (prcomp's x). */
  scores: number[][];
}

/** Column means and sample SDs (n - 1). */
export function columnMoments(matrix: readonly (readonly number[])[]): { mean: number[]; sd: number[] } {
  const n = matrix.length;
  const p = matrix[0]?.length ?? 0;
  const mean = new Array<number>(p).fill(0), sd = new Array<number>(p).fill(0);
  for (const row of matrix) for (let j = 0; j < p; j++) mean[j] += row[j] / n;
  for (const row of matrix) for (let j = 0; j < p; j++) sd[j] += (row[j] - mean[j]) ** 2;
  for (let j = 0; j < p; j++) sd[j] = Math.sqrt(sd[j] / (n - 1));
  return { mean, sd };
}

export function pca(matrix: readonly (readonly number[])[]): PcaResult {
  const n = matrix.length;
  if (n < 2) throw new Error(`pca: need at least 2 rows, got ${n}`);
  const p = matrix[0].length;
  matrix.forEach((row, i) => {
    if (row.length !== p) throw new Error(`pca: row ${i} has ${row.length} values, expected ${p}`);
    row.forEach((v, j) => { if (!Number.isFinite(v)) throw new Error(`pca: row ${i} column ${j} is not a finite number`); });
  });
  const { mean, sd } = columnMoments(matrix);
  sd.forEach((s, j) => { if (!(s > 0)) throw new Error(`pca: column ${j} is constant`); });
  const z = matrix.map((row) => row.map((v, j) => (v - mean[j]) / sd[j]));
  const zm = new Matrix(z);
  const corr = zm.transpose().mmul(zm).div(n - 1);
  const evd = new EigenvalueDecomposition(corr, { assumeSymmetric: true });
  const values = evd.realEigenvalues;
  const vectors = evd.eigenvectorMatrix;
  const order = values.map((_, i) => i).sort((a, b) => values[b] - values[a]);
  const variances = order.map((i) => Math.max(0, values[i]));
  const loadings: number[][] = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  order.forEach((src, c) => {
    let sum = 0;
    for (let j = 0; j < p; j++) sum += vectors.get(j, src);
    const sign = sum < 0 ? -1 : 1;
    for (let j = 0; j < p; j++) loadings[j][c] = sign * vectors.get(j, src);
  });
  const scores = z.map((row) => {
    const out = new Array<number>(p).fill(0);
    for (let c = 0; c < p; c++) for (let j = 0; j < p; j++) out[c] += row[j] * loadings[j][c];
    return out;
  });
  const total = variances.reduce((s, v) => s + v, 0);
  return { center: mean, scale: sd, variances, explained: variances.map((v) => v / total), loadings, scores };
}
