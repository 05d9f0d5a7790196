// The Nonogram engine's public API: grid model, line solver, propagation/search, metrics, hints, formats, generator.
export * from './grid.ts';
export { lineSolve, lineSolveOverlap, solveLineInPlace, overlapSolveLineInPlace, changedPositions, clueSpan } from './lineSolver.ts';
export { propagate, propagateInPlace, probeInPlace, countSolutions, solve, forcedCells, unknownCount, newStats } from './solver.ts';
export type { LineRule, PropagationStats, PropagateResult, PropagateStatus, ProbeStats, CountOptions, CountResult } from './solver.ts';
export { difficulty, footholds, initialOverlapCells } from './metrics.ts';
export type { HumanDifficulty, DifficultyOptions } from './metrics.ts';
export { puzzleId, canonicalClues, hash53 } from './id.ts';
export { GenerateOptions, generatePuzzles, iteratePuzzles, puzzleFromSeed, candidateFromSeed, randomSolution, candidateSeed } from './generate.ts';
export type { GenerateHooks, GenerateProgress, CandidateOutcome } from './generate.ts';
export { hint } from './hint.ts';
export type { Hint, HintReasoning } from './hint.ts';
export { PuzzleFormatError, InconsistentCluesError, parsePuzzleFile, parseJsonPuzzles, parseNdjsonPuzzles, parseNon, parseWebpbnXml, writeJsonPuzzle, writeNon, writeWebpbnXml, detectFormat, finishPuzzle, checkClues } from './formats.ts';
export type { PuzzleFormat, NonProperties } from './formats.ts';
export { solvePuzzle, satisfiesClues, checkKnownSolution, KnownSolutionError } from './solvePuzzle.ts';
export type { SolveEngine, SettledBy, SolvePuzzleOptions, SolvePuzzleResult, SolvePuzzleStats } from './solvePuzzle.ts';
export { makeUnique, otsuThreshold, thresholdGrid } from './fromPicture.ts';
export type { MakeUniqueOptions, MakeUniqueResult, ChangedCell } from './fromPicture.ts';
