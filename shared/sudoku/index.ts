// nonolab's Sudoku engine: grid model, schema, formats, exact counter, generator, CNF encodings and SAT metrics, forced cells.
export * from './grid.ts';
export * from './schema.ts';
export * from './formats.ts';
export * from './solver.ts';
export * from './generate.ts';
export * from './cnf.ts';
export * from './infer.ts';
export { geometry, candidatesOf, conflicts, digitsOf, type UnitRef, type Geometry } from './candidates.ts';
export { PROPAGATION_LEVELS, gradePropagation, propagate, type PropagationLevel, type PropagationGrade, type PropagationGrading, type PropagationResult } from './propagation.ts';
export { TECHNIQUES, gradeHuman, easiestStep, stateOf, type TechniqueId, type HumanGrade } from './techniques.ts';
export { sudokuHint, type SudokuHint, type SudokuHintReasoning, type SudokuHintOptions } from './hint.ts';
export * from './metrics.ts';
