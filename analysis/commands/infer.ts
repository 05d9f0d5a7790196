// `nonolab infer PUZZLE.json`: the cells every solution agrees on, by SAT under assumptions (Foote & Krizanc).
import type { Command } from 'commander';
import { gridToRows } from '../../shared/nonogram/grid.ts';
import { forcedCells } from '../../shared/sat/index.ts';
import { InputError, parseEncoding, readPuzzles } from './cnf.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile, tryRecord } from '../kindFile.ts';

export function registerInfer(program: Command): void {
  program
    .command('infer')
    .description(commandDescription('infer'))
    .argument('<puzzle>', 'a puzzle file (JSON, NDJSON, .non, webpbn XML or a study config; bare {"rows","cols"} clues too)')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from the file)')
    .option('--encoding <name>', 'Nonogram: block-start, dfa or line-gac (default block-start); a Sudoku is inferred exactly by search, with no encoding')
    .option('--conflict-budget <n>', 'conflicts allowed per solver call (a cell whose call runs out is undecided)')
    .action((file: string, opts: { kind?: string; encoding?: string; conflictBudget?: string }) => {
      const other = otherKindFile('infer', file, opts.kind);
      if (other === 'error') return;
      if (other) {
        // The cells every solution shares: exact, by the kind's own counter (one search per open question).
        for (const record of other.records)
          tryRecord(
            'infer',
            () => {
              const f = other.kind.forced(record);
              console.log(JSON.stringify({ id: record.id, kind: other.kind.id, forced: f.forced, complete: f.complete, grid: f.rows }));
            },
            other.kind,
          );
        return;
      }
      try {
        opts.encoding ??= 'block-start';
        const encoding = parseEncoding(opts.encoding);
        const budget = opts.conflictBudget === undefined ? undefined : Number(opts.conflictBudget);
        if (budget !== undefined && !(Number.isInteger(budget) && budget >= 0)) throw new InputError(`--conflict-budget must be a non-negative integer, got '${opts.conflictBudget}'`);
        readPuzzles(file).forEach((p, i) => {
          let r;
          try {
            r = forcedCells(p, { encoding, conflictBudget: budget });
          } catch (err) {
            throw new InputError(`${file}: puzzle ${p.id ?? i}: ${(err as Error).message}`);
          }
          const filled: [number, number][] = [];
          const empty: [number, number][] = [];
          r.grid.cells.forEach((v, k) => {
            const cell: [number, number] = [Math.floor(k / r.grid.width), k % r.grid.width];
            if (v === 1) filled.push(cell);
            else if (v === 2) empty.push(cell);
          });
          console.log(
            JSON.stringify({
              ...(p.id ? { id: p.id } : {}),
              encoding,
              solvable: r.solvable,
              unique: r.unique,
              forced_filled: r.forcedFilled,
              forced_empty: r.forcedEmpty,
              undecided: r.undecided,
              cells: r.grid.width * r.grid.height,
              grid: gridToRows(r.grid),
              filled_cells: filled,
              empty_cells: empty,
              solves: r.solves,
              ...r.stats,
            }),
          );
        });
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        console.error(err.message);
        process.exitCode = 2;
      }
    });
}
