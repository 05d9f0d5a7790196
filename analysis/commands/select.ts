// `nonolab select --in FILE --scheme paper`: choose the study's six puzzles by a solver metric, as the paper did.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { selectPaper, type Selection } from '../../shared/sat/index.ts';
import { loadPuzzles } from '../puzzleFile.ts';
import { configFileProblem, configWithPuzzles } from './configOut.ts';
import { withSolution } from '../puzzleSolution.ts';
import { metricOption, metricValueOf, type Metric } from '../metric.ts';
import { commandDescription } from './catalog.ts';
import { otherKindFile } from '../kindFile.ts';
import { outputFileProblem } from './outputPaths.ts';
import { selectSpread, type SpreadCandidate } from '../../shared/sat/spread.ts';
import { withEveryEncoding } from '../pipeline/measures.ts';

/** Selects with the paper's scheme; prints an error naming the puzzle and field and returns null if a metric is missing. */
export function selectFromPuzzles(file: string, puzzles: Puzzle[], metric: Metric): Selection | null {
  const candidates: { id: string; value: number }[] = [];
  for (let i = 0; i < puzzles.length; i++) {
    const value = metricValueOf(puzzles[i], metric);
    if (value === null) {
      // A second solver's counters come only from `measure --solvers NAME`: say so, not plain `measure`.
      const solver = /^sat_(\w+)$/.exec(metric.path[0])?.[1];
      const measure = solver && solver !== 'dfa' ? `nonolab measure --solvers ${solver}` : 'nonolab measure';
      console.error(`${file}: puzzle ${puzzles[i].id} (record ${i}): field ${metric.field} is missing; run \`${measure}\` first`);
      process.exitCode = 2;
      return null;
    }
    candidates.push({ id: puzzles[i].id, value });
  }
  try {
    return selectPaper(candidates);
  } catch (err) {
    console.error(`${file}: ${(err as Error).message}`);
    process.exitCode = 2;
    return null;
  }
}

export function registerSelect(program: Command): void {
  program
    .command('select')
    .description(commandDescription('select'))
    .requiredOption('--in <file>', 'measured puzzles (NDJSON from generate/measure, a set from pack) or a study config (its puzzles)')
    .option('--kind <kind>', 'the puzzle kind: nonogram or sudoku (default: inferred from the file)')
    .option('--scheme <name>', 'selection scheme: paper (the 2 lowest, 2 nearest the median, 2 highest by --metric) or spread (the puzzles on which the two --metrics disagree most: 3 high on the first and low on the second, 3 the reverse)', 'paper')
    .option('--metrics <a,b>', 'with --scheme spread: the two measures to tell apart, e.g. sat_conflicts,gac_conflicts')
    .option('--metric <name>', 'the metric to select by: <source>_<key> such as sat_conflicts, dfa_conflicts, human_level (old spellings conflicts, sat_dfa.conflicts accepted); a Sudoku: extended_conflicts (its default), minimal_<key>, human_level', 'sat_conflicts')
    .option('--out <file>', 'write the six puzzle records (the study-config "puzzles" array), or the whole config with --config')
    .option('--config <file>', 'a study config whose "puzzles" are replaced by the selection (written to --out)')
    .action((opts: { kind?: string; in: string; scheme: string; metric: string; metrics?: string; out?: string; config?: string }, command: Command) => {
      if (opts.scheme !== 'paper' && opts.scheme !== 'spread') {
        console.error(`--scheme: paper or spread, got '${opts.scheme}'`);
        process.exitCode = 2;
        return;
      }
      if (opts.scheme === 'spread') return selectSpreadCommand(opts);
      if (opts.metrics !== undefined) {
        console.error('--metrics is for --scheme spread (the paper scheme selects by one --metric)');
        process.exitCode = 2;
        return;
      }
      if (opts.config && !opts.out) {
        console.error('--config needs --out (the file to write the updated config to)');
        process.exitCode = 2;
        return;
      }
      const other = otherKindFile('select', opts.in, opts.kind);
      if (other === 'error') return;
      if (other && opts.config) {
        console.error(`select: --config: a study config holds Nonogram puzzles; write the ${other.kind.name} selection with --out alone`);
        process.exitCode = 2;
        return;
      }
      const metric = metricOption('--metric', other && command.getOptionValueSource('metric') === 'default' ? other.kind.defaultMetric : opts.metric);
      if (!metric) return;
      // The output and the config to fill are checked before anything is selected or printed.
      const outProblem = opts.out === undefined ? null : outputFileProblem('--out', opts.out);
      if (outProblem) {
        console.error(`select: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      if (opts.config) {
        const problem = configFileProblem(opts.config);
        if (problem) {
          console.error(`select: --config ${problem}`);
          process.exitCode = 2;
          return;
        }
      }
      const puzzles = other ? (other.records as Puzzle[]) : loadPuzzles(opts.in);
      if (!puzzles) return;
      const selection = selectFromPuzzles(opts.in, puzzles, metric);
      if (!selection) return;
      const byId = new Map(puzzles.map((p) => [p.id, p]));
      const chosen = selection.selected.map((s) => byId.get(s.id) as Puzzle);
      // The config is filled (and checked) before the selection is printed: a config it cannot go into prints nothing.
      let written: { text: string } | { error: string } | undefined;
      // A clue-only puzzle (.non without goal) gets its one solution, which a study puzzle needs.
      if (opts.out && opts.config) written = configWithPuzzles(opts.config, chosen.map((p) => withSolution(p).puzzle), 'selected', () => opts.in);
      if (written && 'error' in written) {
        console.error(written.error);
        process.exitCode = 2;
        return;
      }
      for (const s of selection.selected) {
        const p = byId.get(s.id) as Puzzle;
        const m = p.metrics as Record<string, { level?: unknown } | undefined> | undefined;
        if (other) console.log(JSON.stringify({ id: s.id, role: s.role, rank: s.rank, metric: metric.name, value: s.value, sat_minimal: m?.sat_minimal, sat_extended: m?.sat_extended, human_level: m?.human?.level }));
        else console.log(JSON.stringify({ id: s.id, role: s.role, rank: s.rank, metric: metric.name, value: s.value, sat: p.metrics?.sat, sat_dfa: p.metrics?.sat_dfa, human_level: p.metrics?.human?.level }));
      }
      console.error(`select: ${selection.n} candidates, median ${metric.name} ${selection.median}, top ${selection.excluded_top} excluded (highest picks at or below ${selection.high_cutoff})`);
      if (!opts.out) return;
      if (written) writeFileSync(opts.out, written.text);
      else if (other) writeFileSync(opts.out, chosen.map((p) => other.kind.writeRecord(p) + '\n').join(''));
      else writeFileSync(opts.out, JSON.stringify(chosen, null, 2) + '\n');
      console.error(`select: wrote ${chosen.length} puzzles to ${opts.out}`);
    });
}

/** What the rationale says of picks that tie an earlier one (a pool with too few distinct values). */
function tieNote(picks: readonly { ties?: boolean }[]): string {
  const n = picks.filter((p) => p.ties).length;
  return n === 0 ? '' : `; the pool has too few distinct values: ${n} of the picks tie an earlier one on a measure`;
}

/** `select --scheme spread --metrics a,b`: the six puzzles on which a and b disagree most, and why, into --out (and the config's `selection`). */
function selectSpreadCommand(opts: { kind?: string; in: string; metrics?: string; out?: string; config?: string }): void {
  const fail = (message: string) => {
    console.error(message);
    process.exitCode = 2;
  };
  const names = (opts.metrics ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (names.length !== 2) return fail(`select: --scheme spread needs --metrics a,b (two measures to tell apart), got '${opts.metrics ?? ''}'`);
  const a = metricOption('--metrics', names[0]);
  if (!a) return;
  const b = metricOption('--metrics', names[1]);
  if (!b) return;
  if (a.name === b.name) return fail(`select: --metrics: the two measures are the same (${a.name})`);
  if (opts.config && !opts.out) return fail('--config needs --out (the file to write the updated config to)');
  const outProblem = opts.out === undefined ? null : outputFileProblem('--out', opts.out);
  if (outProblem) return fail(`select: ${outProblem}`);
  if (opts.config) {
    const problem = configFileProblem(opts.config);
    if (problem) return fail(`select: --config ${problem}`);
  }
  const other = otherKindFile('select', opts.in, opts.kind);
  if (other === 'error') return;
  if (other && opts.config) return fail(`select: --config: a study config holds Nonogram puzzles; write the ${other.kind.name} selection with --out alone`);
  const loaded = other ? (other.records as Puzzle[]) : loadPuzzles(opts.in);
  if (!loaded) return;
  // a Nonogram without MiniSat's line-GAC statistics gets them, so gac_<key> can be asked for on any measured pool
  const puzzles = other ? loaded : withEveryEncoding(loaded).puzzles;
  const candidates: SpreadCandidate[] = [];
  for (const [i, p] of puzzles.entries()) {
    const va = metricValueOf(p, a), vb = metricValueOf(p, b);
    if (va === null || vb === null) return fail(`${opts.in}: puzzle ${p.id} (record ${i}): field ${(va === null ? a : b).field} is missing; run \`nonolab measure${other ? '' : ' --encodings all'}\` first`);
    candidates.push({ id: p.id, a: va, b: vb });
  }
  let picks;
  try {
    picks = selectSpread(candidates, 6);
  } catch (err) {
    return fail(`${opts.in}: ${(err as Error).message}`);
  }
  const rationale = `spread: the 6 of ${candidates.length} candidates on which ${a.name} and ${b.name} disagree most (percentile ranks over the pool): 3 high on ${a.name} and low on ${b.name}, 3 the reverse, no two of a half sharing a value of either measure (a tie ranks nothing), so a study can tell the two measures apart (the paper's scheme picks along one measure, on which measures mostly agree)${tieNote(picks)}`;
  const selection = { scheme: 'spread', metrics: [a.name, b.name], rationale, picks: picks.map((p) => ({ id: p.id, role: p.role, values: { [a.name]: p.a, [b.name]: p.b } })) };
  const byId = new Map(loaded.map((p) => [p.id, p]));
  const chosen = picks.map((p) => byId.get(p.id) as Puzzle);
  let written: { text: string } | { error: string } | undefined;
  if (opts.out && opts.config) written = configWithPuzzles(opts.config, chosen.map((p) => withSolution(p).puzzle), 'selected', () => opts.in, { selection });
  if (written && 'error' in written) return fail(written.error);
  for (const p of picks) console.log(JSON.stringify({ id: p.id, role: p.role, [a.name]: p.a, [b.name]: p.b, rank_a: p.rank_a, rank_b: p.rank_b, disagreement: p.disagreement, ...(p.ties ? { ties: true } : {}) }));
  console.error(`select: ${rationale}`);
  if (!opts.out) return;
  if (written) writeFileSync(opts.out, written.text);
  else if (other) writeFileSync(opts.out, chosen.map((p) => other.kind.writeRecord(p) + '\n').join(''));
  else writeFileSync(opts.out, JSON.stringify(chosen, null, 2) + '\n');
  console.error(`select: wrote ${chosen.length} puzzles to ${opts.out}`);
}
