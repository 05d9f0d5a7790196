// `nonolab pack FILE... --out FILE [--config STUDY.json] [--order METRIC]`: one study puzzle set from generated, imported and picture puzzles.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { canonicalClues, difficulty } from '../../shared/nonogram/index.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { satMetricsRecord } from '../../shared/sat/index.ts';
import { loadPuzzles } from '../puzzleFile.ts';
import { configFileProblem, configWithPuzzles } from './configOut.ts';
import { describeNoUniqueSolution, withSolution } from '../puzzleSolution.ts';
import { metricOf, metricValueOf } from '../metric.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile, type KindFile } from '../kindFile.ts';
import { outputFileProblem } from './outputPaths.ts';

export type PuzzleOrigin = 'generated' | 'imported' | 'picture';

/** Where a puzzle came from: `from-image` leaves metrics.picture, `generate` a seed; anything else was imported. */
export function puzzleOrigin(p: Puzzle): PuzzleOrigin {
  if (p.metrics && typeof p.metrics.picture === 'object' && p.metrics.picture !== null) return 'picture';
  if (p.seed !== undefined) return 'generated';
  return 'imported';
}

export interface PackResult {
  puzzles: Puzzle[];
  /** The file each packed puzzle came from, by id. */
  fileOf: Map<string, string>;
  /** Same puzzle (same id and clues) seen again: kept once. */
  duplicates: string[];
}

/**
 * Merge puzzle lists (in file order), fill in missing metrics (metrics.human and metrics.sat /
 * sat_dfa, as `measure` computes them) and a missing solution (a clue-only .non or XML: the one solution, which the
 * uniqueness check finds anyway), tag each with metrics.origin and order them by `order`
 * (ascending; ties by human level, then MiniSat conflicts, then id). Throws with a message naming the file and puzzle when one is not uniquely solvable
 * (its recorded metrics say so, or it has no solution recorded and not exactly one exists),
 * when two different puzzles share an id, or when the ordering metric is missing.
 */
export function packPuzzles(sources: { file: string; puzzles: Puzzle[] }[], order: string): PackResult {
  const byId = new Map<string, { puzzle: Puzzle; file: string }>();
  const duplicates: string[] = [];
  for (const { file, puzzles } of sources) {
    puzzles.forEach((p, i) => {
      const where = `${file}: puzzle ${p.id} (record ${i})`;
      const seen = byId.get(p.id);
      if (seen) {
        if (canonicalClues(seen.puzzle) !== canonicalClues(p)) throw new Error(`${where}: id already used by a different puzzle in ${seen.file}`);
        duplicates.push(p.id);
        return;
      }
      const metrics = { ...(p.metrics ?? {}) };
      if (!metrics.human) metrics.human = difficulty(p, { forcedCells: false });
      if (metrics.human.unique === false) throw new Error(`${where}: not uniquely solvable (metrics.human.unique is false); a study puzzle needs exactly one solution`);
      if (!metrics.sat || !metrics.sat_dfa) Object.assign(metrics, satMetricsRecord(p));
      const solved = withSolution(p);
      if (solved.problem) throw new Error(`${where}: no solution recorded, and ${describeNoUniqueSolution(solved.problem)}; a study puzzle needs exactly one solution`);
      const origin = puzzleOrigin(p);
      byId.set(p.id, { puzzle: { ...solved.puzzle, metrics: { ...metrics, origin } }, file });
    });
  }
  const packed = [...byId.values()].map((x) => x.puzzle);
  const metric = metricOf(order);
  for (const p of packed) if (metricValueOf(p, metric) === null) throw new Error(`puzzle ${p.id}: field ${metric.field} is missing; cannot order by ${metric.name}`);
  const level = (p: Puzzle) => p.metrics?.human?.level ?? 4;
  const conflicts = (p: Puzzle) => p.metrics?.sat?.conflicts ?? 0;
  packed.sort((a, b) => (metricValueOf(a, metric) as number) - (metricValueOf(b, metric) as number) || level(a) - level(b) || conflicts(a) - conflicts(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { puzzles: packed, duplicates, fileOf: new Map([...byId].map(([id, x]) => [id, x.file])) };
}

export function registerPack(program: Command): void {
  program
    .command('pack')
    .description(commandDescription('pack'))
    .argument('<files...>', 'puzzle files in any format nonolab reads')
    .requiredOption('--out <file>', 'write the puzzle set (JSON array), or the whole config with --config')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from each file)')
    .option('--config <file>', 'a study config whose "puzzles" are replaced by the set (written to --out)')
    .option('--order <metric>', 'order by this metric, ascending: <source>_<key> such as human_level, human_line_passes, sat_conflicts (old spellings human.level, conflicts accepted)', 'human_level')
    .action((files: string[], opts: { kind?: string; out: string; config?: string; order: string }) => {
      try {
        metricOf(opts.order);
      } catch (err) {
        console.error(`pack: --order: ${(err as Error).message}`);
        process.exitCode = 2;
        return;
      }
      // The output (and the config to fill) are checked before any puzzle is read or solved.
      const configProblem = opts.config === undefined ? null : configFileProblem(opts.config);
      const outProblem = outputFileProblem('--out', opts.out) ?? (configProblem && `--config ${configProblem}`);
      if (outProblem) {
        console.error(`pack: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      // Each file read as its kind (named or inferred); the first that cannot be read stops the command.
      const others: { file: string; other: KindFile | null }[] = [];
      for (const file of files) {
        const other = otherKindFile('pack', file, opts.kind);
        if (other === 'error') return;
        others.push({ file, other });
      }
      if (others.some((o) => o.other)) {
        const kinds = new Set(others.map((o) => (o.other ? (o.other as KindFile).kind.id : 'nonogram')));
        if (kinds.size > 1) {
          console.error(`pack: the files hold puzzles of different kinds (${[...kinds].join(', ')}); pack one kind into a set`);
          process.exitCode = 2;
          return;
        }
        packKind(others.map((o) => ({ file: o.file, ...(o.other as KindFile) })), opts);
        return;
      }
      const sources: { file: string; puzzles: Puzzle[] }[] = [];
      for (const file of files) {
        const puzzles = loadPuzzles(file);
        if (!puzzles) return;
        if (puzzles.length === 0) {
          console.error(`${file}: no puzzles`);
          process.exitCode = 2;
          return;
        }
        sources.push({ file, puzzles });
      }
      let packed: PackResult;
      try {
        packed = packPuzzles(sources, opts.order);
      } catch (err) {
        console.error(`pack: ${(err as Error).message}`);
        process.exitCode = 2;
        return;
      }
      let text = JSON.stringify(packed.puzzles, null, 2) + '\n';
      if (opts.config) {
        const written = configWithPuzzles(opts.config, packed.puzzles, 'packed', (id) => packed.fileOf.get(id));
        if ('error' in written) {
          console.error(written.error);
          process.exitCode = 2;
          return;
        }
        text = written.text;
      }
      writeFileSync(opts.out, text);
      const counts = { generated: 0, imported: 0, picture: 0 };
      for (const p of packed.puzzles) counts[p.metrics?.origin as PuzzleOrigin]++;
      if (packed.duplicates.length) console.error(`pack: ${packed.duplicates.length} duplicate puzzle(s) kept once: ${packed.duplicates.join(', ')}`);
      console.error(`pack: ${packed.puzzles.length} puzzles (${counts.generated} generated, ${counts.imported} imported, ${counts.picture} from pictures), ordered by ${metricOf(opts.order).field} -> ${opts.out}`);
    });
}

/**
 * Another kind's set (Sudoku): the records of every file, each with its unique solution and its measures (as
 * `measure` adds them), tagged with `metrics.origin` (generated: it has a seed; else imported), kept once per id,
 * ordered by the metric (ties by id), written as NDJSON. A board without exactly one solution is named and nothing is
 * written.
 */
function packKind(sources: (KindFile & { file: string })[], opts: { out: string; config?: string; order: string }): void {
  const kind = sources[0].kind;
  if (opts.config) {
    console.error(`pack: --config: a study config holds Nonogram puzzles; write the ${kind.name} set with --out alone`);
    process.exitCode = 2;
    return;
  }
  const byId = new Map<string, any>();
  const duplicates: string[] = [];
  try {
    for (const { file, records } of sources)
      records.forEach((given: any, i: number) => {
        if (byId.has(given.id)) {
          duplicates.push(given.id);
          return;
        }
        let record;
        try {
          record = kind.withSolution(given);
        } catch (err) {
          throw new Error(`${file}: record ${i + 1}: ${(err as Error).message}; a study puzzle needs exactly one solution`);
        }
        const metrics = { ...(record.metrics ?? {}) };
        if (!metrics.human) metrics.human = kind.humanMetrics(record);
        for (const [block, stats] of Object.entries(kind.satMetrics(record))) metrics[block] ??= stats;
        metrics.origin = record.seed !== undefined ? 'generated' : 'imported';
        byId.set(record.id, { ...record, metrics });
      });
  } catch (err) {
    console.error(`pack: ${(err as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const metric = metricOf(opts.order);
  const packed = [...byId.values()];
  for (const p of packed)
    if (metricValueOf(p, metric) === null) {
      console.error(`pack: puzzle ${p.id}: field ${metric.field} is missing; cannot order by ${metric.name}`);
      process.exitCode = 2;
      return;
    }
  packed.sort((a, b) => (metricValueOf(a, metric) as number) - (metricValueOf(b, metric) as number) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeFileSync(opts.out, packed.map((p) => kind.writeRecord(p) + '\n').join(''));
  if (duplicates.length) console.error(`pack: ${duplicates.length} duplicate puzzle(s) kept once: ${duplicates.join(', ')}`);
  console.error(`pack: ${packed.length} ${kind.name} puzzles, ordered by ${metric.field} -> ${opts.out}`);
}
