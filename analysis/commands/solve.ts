// `nonolab solve FILE... [--count N] [--timeout S] [--engine line|sat|auto] [--pretty]`: how many solutions each puzzle has, and how that was found out.
import { performance } from 'node:perf_hooks';
import type { Command } from 'commander';
import { FILLED, gridToRows, InconsistentCluesError, PuzzleFormatError, solvePuzzle } from '../../shared/nonogram/index.ts';
import { PuzzleFileError, readPuzzleFile } from '../puzzleFile.ts';
import type { Grid, SolveEngine } from '../../shared/nonogram/index.ts';
import { SolveLine, type Puzzle } from '../../shared/schema/puzzle.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile, tryRecord } from '../kindFile.ts';

interface SolveFlags {
  kind?: string;
  count: string;
  timeout?: string;
  engine: string;
  pretty?: boolean;
}

export { SolveLine };

/** Check the flags; returns the settings or a message naming the bad flag. */
export function solveSettings(flags: SolveFlags): { limit: number; timeoutMs?: number; engine: SolveEngine } | string {
  const limit = Number(flags.count);
  if (!Number.isInteger(limit) || limit < 1) return `--count must be a positive integer, got '${flags.count}'`;
  let timeoutMs: number | undefined;
  if (flags.timeout !== undefined) {
    const s = Number(flags.timeout);
    if (!Number.isFinite(s) || s <= 0) return `--timeout must be a positive number of seconds, got '${flags.timeout}'`;
    timeoutMs = s * 1000;
  }
  if (flags.engine !== 'line' && flags.engine !== 'sat' && flags.engine !== 'auto') return `--engine must be line, sat or auto, got '${flags.engine}'`;
  return { limit, timeoutMs, engine: flags.engine };
}

/** Solve one puzzle: the JSON line `nonolab solve` prints for it. */
export function solveOne(p: Puzzle, settings: { limit: number; timeoutMs?: number; engine: SolveEngine }): SolveLine {
  const now = () => performance.now();
  const t0 = now();
  const r = solvePuzzle(
    { rows: p.rows, cols: p.cols },
    { limit: settings.limit, engine: settings.engine, now, ...(settings.timeoutMs !== undefined ? { deadline: t0 + settings.timeoutMs } : {}) },
  );
  const time = now() - t0;
  const line: SolveLine = {
    id: p.id,
    width: p.width,
    height: p.height,
    solutions: r.count,
    complete: r.complete,
    time_ms: Math.round(time * 10) / 10,
    settled_by: r.settledBy,
    solution: r.solutions[0] ? gridToRows(r.solutions[0]) : null,
  };
  if (r.solutions[1]) line.second = gridToRows(r.solutions[1]);
  return SolveLine.parse(line);
}

/** The solution (and the second, side by side, its differing cells marked) as terminal text. */
export function drawSolutions(first: Grid, second?: Grid): string {
  const out: string[] = [];
  for (let r = 0; r < first.height; r++) {
    let left = '';
    let right = '';
    for (let c = 0; c < first.width; c++) {
      const i = r * first.width + c;
      left += first.cells[i] === FILLED ? '██' : '· ';
      if (second) right += second.cells[i] === first.cells[i] ? (second.cells[i] === FILLED ? '██' : '· ') : second.cells[i] === FILLED ? '▓▓' : '○ ';
    }
    out.push(second ? `${left}   ${right}` : left);
  }
  if (second) out.push('(right: the second solution; ▓▓ and ○ mark the cells where it differs)');
  return out.join('\n');
}

function gridOf(rows: string[]): Grid {
  const height = rows.length;
  const width = rows[0].length;
  const cells = new Uint8Array(width * height);
  rows.forEach((row, r) => {
    for (let c = 0; c < width; c++) cells[r * width + c] = row[c] === '#' ? 1 : 2;
  });
  return { width, height, cells };
}

export function registerSolve(program: Command): void {
  program
    .command('solve')
    .description(commandDescription('solve'))
    .argument('<files...>', 'puzzle files: our JSON / NDJSON, .non, webpbn XML (one or many puzzles per file)')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from each file)')
    .option('--count <n>', 'count solutions up to this many (2 decides uniqueness)', '2')
    .option('--timeout <seconds>', 'stop each puzzle after this long; the line then says complete: false with the count so far')
    .option('--engine <name>', 'line (line logic, probing, search), sat (CDCL on the line-GAC CNF) or auto (line logic, then SAT)', 'auto')
    .option('--pretty', 'after each JSON line, draw the solution (and the second) in the terminal')
    .action((files: string[], flags: SolveFlags) => {
      const settings = solveSettings(flags);
      if (typeof settings === 'string') {
        console.error(`solve: ${settings}`);
        process.exitCode = 2;
        return;
      }
      for (const file of files) {
        const other = otherKindFile('solve', file, flags.kind);
        if (other === 'error') continue;
        if (other) {
          // Another kind (Sudoku): the same line per puzzle, from its module; an inconsistent board is named, not searched.
          for (const record of other.records)
            tryRecord(
              'solve',
              () => {
                const line = other.kind.solve(record, { limit: settings.limit, now: () => performance.now() });
                process.stdout.write(JSON.stringify(line) + '\n');
                if (flags.pretty && line.solution) process.stdout.write(other.kind.draw(line.solution, line.second) + '\n\n');
              },
              other.kind,
            );
          continue;
        }
        let puzzles: Puzzle[];
        try {
          puzzles = readPuzzleFile(file).puzzles;
        } catch (err) {
          if (err instanceof InconsistentCluesError) console.error(`solve: ${err.message} (no board can satisfy these clues; not searched)`);
          else if (err instanceof PuzzleFormatError || err instanceof PuzzleFileError) console.error(`solve: ${err.message}`);
          else throw err;
          process.exitCode = 2;
          continue;
        }
        if (puzzles.length === 0) {
          console.error(`solve: ${file}: no puzzle in the file`);
          process.exitCode = 2;
          continue;
        }
        for (const p of puzzles) {
          const line = solveOne(p, settings);
          process.stdout.write(JSON.stringify(line) + '\n');
          if (flags.pretty && line.solution) process.stdout.write(drawSolutions(gridOf(line.solution), line.second ? gridOf(line.second) : undefined) + '\n\n');
        }
      }
    });
}
