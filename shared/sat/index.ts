// nonolab's SAT toolkit: DIMACS I/O, a MiniSat 2.2.0-exact CDCL solver, Nonogram encodings, metrics and inference.
export { Cnf, DimacsError, parseDimacs, writeDimacs } from './dimacs.ts';
export { Solver, solveCnf, loadCnf, fromDimacs, toDimacs, mkLit, litVar, litSign, L_TRUE, L_FALSE, L_UNDEF } from './solver.ts';
export type { Lbool, SatResult, SolverStats, SolverOptions, SolveCnfOptions, SolveCnfResult } from './solver.ts';
export { encodeBlockStart, blockStartCounts, packing, type NonogramCnf } from './blockStart.ts';
export { encodeDfa, lineDfa } from './dfa.ts';
export { encodeLineGac, emitLineGac, emitLine, labelledAutomaton, type ClauseSink } from './lineGac.ts';
export { forcedCells, forcedCellsReference, encode, type Encoding, type ForcedCellsOptions, type ForcedCellsResult } from './infer.ts';
export { satMetrics, satMetricsRecord, type SatMetricsResult } from './metrics.ts';
export { randomKSat, pigeonhole } from './families.ts';
export { selectPaper, rankCandidates, SelectionRole, type Candidate, type Selected, type Selection } from './select.ts';
