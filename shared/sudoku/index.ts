// nonolab's Sudoku engine: grid model, schema, formats, exact counter, generator, CNF encodings and SAT metrics, forced cells.
export * from './grid.ts';
export * from './schema.ts';
export * from './formats.ts';
export * from './solver.ts';
export * from './generate.ts';
export * from './cnf.ts';
export * from './infer.ts';
