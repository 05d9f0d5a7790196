// `nonolab generate --kind sudoku --size 9x9 [--box RxC] [--symmetric] [--clues N] [--sat] --count N --seed S`:
// seeded Sudoku puzzles as NDJSON, with both grades (the propagation ladder and the human technique ladder) and, with
// --sat, MiniSat's statistics on both encodings. Deterministic: the same arguments give the same bytes.
import { openOutput } from './outputPaths.ts';
import { defaultBox, humanGrade, iterateSudokus, SudokuGenerateError, sudokuMetrics, writeSudokuRecord, type SudokuPuzzle } from '../../shared/sudoku/index.ts';

export interface KindGenerateFlags {
  size: string;
  box?: string;
  count: string;
  seed: string;
  out?: string;
  sat?: boolean;
  symmetric?: boolean;
  clues?: string;
}

/** Flags to options, or a message naming the bad flag. */
export function sudokuGenerateOptions(flags: KindGenerateFlags, sizeGiven: boolean) {
  const size = /^(\d+)x(\d+)$/i.exec(flags.size.trim());
  if (sizeGiven && (!size || size[1] !== size[2])) return `--size: a Sudoku is square, NxN (e.g. 9x9, 16x16), got '${flags.size}'`;
  const n = sizeGiven ? Number(size![1]) : 9;
  let box: [number, number] = defaultBox(n);
  if (flags.box !== undefined) {
    const b = /^(\d+)x(\d+)$/i.exec(flags.box.trim());
    if (!b) return `--box must look like ROWSxCOLS (e.g. 2x3), got '${flags.box}'`;
    box = [Number(b[1]), Number(b[2])];
  }
  if (box[0] * box[1] !== n || n < 4 || n > 25) return `--size ${n}x${n}: needs a box of rows x cols = ${n} (4x4 2x2, 6x6 2x3, 9x9, 12x12 3x4, 16x16 4x4; up to 25x25)${flags.box ? `, got --box ${flags.box}` : ''}`;
  const count = Number(flags.count);
  if (!Number.isInteger(count) || count < 1) return `--count must be a positive integer, got '${flags.count}'`;
  const seed = Number(flags.seed);
  if (!Number.isInteger(seed)) return `--seed must be an integer, got '${flags.seed}'`;
  let clues: number | undefined;
  if (flags.clues !== undefined) {
    clues = Number(flags.clues);
    if (!Number.isInteger(clues) || clues < 0 || clues > n * n) return `--clues must be an integer from 0 to ${n * n}, got '${flags.clues}'`;
  }
  return { box, count, seed, clues, symmetric: flags.symmetric ?? false, sat: flags.sat ?? false };
}

/** The records, one by one: each with both grades (and both encodings' statistics with `sat`). */
export function* sudokuRecords(o: Exclude<ReturnType<typeof sudokuGenerateOptions>, string>): Generator<SudokuPuzzle> {
  for (const g of iterateSudokus({ box: o.box, seed: o.seed, count: o.count, symmetric: o.symmetric, ...(o.clues !== undefined ? { clues: o.clues } : {}), ...(o.symmetric ? { grade: humanGrade } : {}) }))
    yield { ...g.puzzle, metrics: sudokuMetrics(g.givens, { sat: o.sat }) };
}

export async function runGenerateKind(flags: KindGenerateFlags, sizeGiven: boolean): Promise<void> {
  const o = sudokuGenerateOptions(flags, sizeGiven);
  if (typeof o === 'string') {
    console.error(`generate: ${o}`);
    process.exitCode = 2;
    return;
  }
  // (--out was checked by generate before it came here.)
  const { out, broken } = openOutput('generate', flags.out);
  try {
    for (const record of sudokuRecords(o)) {
      if (broken()) break;
      if (!out.write(writeSudokuRecord(record) + '\n')) await new Promise((r) => out.once('drain', r));
    }
  } catch (err) {
    if (!(err instanceof SudokuGenerateError)) throw err;
    console.error(`generate: ${err.message}`);
    process.exitCode = 2;
  }
  if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
}
