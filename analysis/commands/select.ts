// `nonolab select --in FILE --scheme paper`: choose the study's six puzzles by a solver metric, as the paper did.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { selectPaper, type Selection } from '../../shared/sat/index.ts';
import { loadPuzzles } from './measure.ts';
import { configWithPuzzles } from './configOut.ts';
import { parseJsonPuzzles } from '../../shared/nonogram/index.ts';

/** The metric's value on a puzzle: a bare name is under metrics.sat; a dotted path is under metrics. */
export function metricValue(p: Puzzle, metric: string): number | undefined {
  const path = metric.includes('.') ? metric.split('.') : ['sat', metric];
  let node: unknown = p.metrics;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' && Number.isFinite(node) ? node : undefined;
}

export function metricField(metric: string): string {
  return metric.includes('.') ? `metrics.${metric}` : `metrics.sat.${metric}`;
}

/** Selects with the paper's scheme; prints an error naming the puzzle and field and returns null if a metric is missing. */
export function selectFromPuzzles(file: string, puzzles: Puzzle[], metric: string): Selection | null {
  const candidates: { id: string; value: number }[] = [];
  for (let i = 0; i < puzzles.length; i++) {
    const value = metricValue(puzzles[i], metric);
    if (value === undefined) {
      console.error(`${file}: puzzle ${puzzles[i].id} (record ${i}): field ${metricField(metric)} is missing; run \`nonolab measure\` first`);
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

/** Puzzles from any puzzle file, or the "puzzles" of a study config (as `pack --config` writes it). */
function loadSet(file: string): Puzzle[] | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return loadPuzzles(file);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !Array.isArray((raw as { puzzles?: unknown }).puzzles) || !('phases' in raw)) return loadPuzzles(file);
  try {
    return parseJsonPuzzles(JSON.stringify((raw as unknown as { puzzles: unknown[] }).puzzles), `${file} (puzzles)`);
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
    return null;
  }
}

export function registerSelect(program: Command): void {
  program
    .command('select')
    .description("pick six study puzzles: the 2 lowest, 2 nearest the median and 2 highest (top 5% excluded) by a metric, as the paper did")
    .requiredOption('--in <file>', 'measured puzzles (NDJSON from generate/measure, a set from pack) or a study config (its puzzles)')
    .option('--scheme <name>', 'selection scheme (paper)', 'paper')
    .option('--metric <name>', 'conflicts | decisions | propagations | restarts (metrics.sat), or a path under metrics such as sat_dfa.conflicts', 'conflicts')
    .option('--out <file>', 'write the six puzzle records (the study-config "puzzles" array), or the whole config with --config')
    .option('--config <file>', 'a study config whose "puzzles" are replaced by the selection (written to --out)')
    .action((opts: { in: string; scheme: string; metric: string; out?: string; config?: string }) => {
      if (opts.scheme !== 'paper') {
        console.error(`--scheme: only 'paper' is implemented, got '${opts.scheme}'`);
        process.exitCode = 2;
        return;
      }
      if (opts.config && !opts.out) {
        console.error('--config needs --out (the file to write the updated config to)');
        process.exitCode = 2;
        return;
      }
      const puzzles = loadSet(opts.in);
      if (!puzzles) return;
      const selection = selectFromPuzzles(opts.in, puzzles, opts.metric);
      if (!selection) return;
      const byId = new Map(puzzles.map((p) => [p.id, p]));
      const chosen = selection.selected.map((s) => byId.get(s.id) as Puzzle);
      for (const s of selection.selected) {
        const p = byId.get(s.id) as Puzzle;
        console.log(JSON.stringify({ id: s.id, role: s.role, rank: s.rank, metric: opts.metric, value: s.value, sat: p.metrics?.sat, sat_dfa: p.metrics?.sat_dfa, human_level: p.metrics?.human?.level }));
      }
      console.error(`select: ${selection.n} candidates, median ${opts.metric} ${selection.median}, top ${selection.excluded_top} excluded (highest picks at or below ${selection.high_cutoff})`);
      if (!opts.out) return;
      if (opts.config) {
        const written = configWithPuzzles(opts.config, chosen, 'selected');
        if ('error' in written) {
          console.error(written.error);
          process.exitCode = 2;
          return;
        }
        writeFileSync(opts.out, written.text);
      } else writeFileSync(opts.out, JSON.stringify(chosen, null, 2) + '\n');
      console.error(`select: wrote ${chosen.length} puzzles to ${opts.out}`);
    });
}
