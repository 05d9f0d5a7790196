// The statistics of the analysis: each method written here and checked against R / scikit-learn / SciPy fixtures.
export { fitGmm, gmmSelect, gmmSelectFromFits, pauseThreshold, crossingPoint, logGaps, distinctLogGaps, kmeans1d } from './gmm.ts';
export type { GmmComponent, GmmFit, GmmOptions, GmmSelection, WeightedValues } from './gmm.ts';
export { bradleyTerry, btContrast, pairsFromRatings, Comparison, RatingRow } from './bradleyTerry.ts';
export type { BtItem, BtOptions, BtResult, ComparisonInput } from './bradleyTerry.ts';
export { fitLmm, lmmDeviance, buildDesign, nelderMead, numericHessian, numericJacobian } from './lmm.ts';
export type { DataRow, LmmDesign, LmmFixed, LmmOptions, LmmResult } from './lmm.ts';
export { parseFormula } from './formula.ts';
export type { ParsedFormula } from './formula.ts';
export { spearman, averageRanks, pearson } from './spearman.ts';
export type { SpearmanResult } from './spearman.ts';
export { pca, columnMoments } from './pca.ts';
export type { PcaResult } from './pca.ts';
export { zMeanComposite, zScores } from './composite.ts';
export type { ZMeanComposite } from './composite.ts';
export { rankBiserial, rankBiserialFromFlags } from './rankBiserial.ts';
export type { RankBiserialResult } from './rankBiserial.ts';
export { readTidyCsv, parseTidyCsv, numericColumn, requireColumns } from './tidyCsv.ts';
export type { TidyCsv } from './tidyCsv.ts';
