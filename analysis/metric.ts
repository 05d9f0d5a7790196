// Puzzle metrics by name: one naming scheme for every command (`sat_conflicts`, `dfa_conflicts`, `human_level`, `cadical_conflicts`), the old spellings as aliases.
/*
 * A metric's name is `<source>_<key>`, as the analysis tables name their columns:
 *
 *   sat_<key>      metrics.sat.<key>        MiniSat on the block-start encoding (decisions, propagations, conflicts, restarts)
 *   dfa_<key>      metrics.sat_dfa.<key>    MiniSat on the DFA encoding (same keys)
 *   gac_<key>      metrics.sat_gac.<key>    MiniSat on the line-GAC encoding (`measure --encodings all`)
 *   human_<key>    metrics.human.<key>      the human-style solver (level, line_passes, footholds, foothold_cells, ...)
 *   <solver>_<key> metrics.sat_<solver>.<key>  another solver run by `measure --solvers` (cadical, cryptominisat, ...)
 *   minimal_<key>  metrics.sat_minimal.<key>    a Sudoku: MiniSat on the minimal encoding (Lynce & Ouaknine 2006)
 *   extended_<key> metrics.sat_extended.<key>   a Sudoku: MiniSat on the extended encoding
 *   human_<key>    for a Sudoku: level (the hardest technique's rank), steps, clues, empty_cells, propagation_level,
 *                  and each technique's count (naked_single, hidden_single, pointing, ..., xy_wing)
 *
 * Older spellings stay accepted and mean the same metric: a bare SAT key (`conflicts`: sat_conflicts), a bare human
 * key (`level`: human_level, as `simulate --metric` took it), and a path under metrics (`human.level`, `sat.conflicts`,
 * `sat_dfa.conflicts`, `sat_cadical.conflicts`, as `select`, `pack` and `plot-metrics` took it). Anything else is an
 * error that lists the accepted forms.
 */
import type { Puzzle } from '../shared/schema/puzzle.ts';
import { EXTERNAL_SOLVERS } from './sat/external.ts';

export const SAT_KEYS = ['decisions', 'propagations', 'conflicts', 'restarts'] as const;
export const HUMAN_KEYS = [
  'level', 'line_passes', 'line_steps', 'footholds', 'foothold_cells', 'initial_overlap_cells', 'overlap_passes', 'line_solved_cells',
  'probes', 'probe_hits', 'search_nodes', 'solutions', 'forced_cells', 'forced_filled', 'forced_empty',
  // A Sudoku's human measures (shared/sudoku/metrics.ts).
  'steps', 'clues', 'empty_cells', 'propagation_level', 'naked_single', 'hidden_single', 'pointing', 'claiming', 'naked_pair', 'hidden_pair',
  'naked_triple', 'hidden_triple', 'x_wing', 'swordfish', 'xy_wing',
] as const;
/** Other solvers `measure --solvers` can store (metrics.sat_<name>). */
export const OTHER_SOLVERS: readonly string[] = Object.keys(EXTERNAL_SOLVERS);

export interface Metric {
  /** The one name: `<source>_<key>`. */
  name: string;
  /** Where it is stored: the path under the puzzle's `metrics`. */
  path: readonly [string, string];
  /** The path as a field name for messages: `metrics.sat.conflicts`. */
  field: string;
}

export class MetricNameError extends Error {}

const BLOCK_OF: Record<string, string> = { sat: 'sat', dfa: 'sat_dfa', gac: 'sat_gac', human: 'human', minimal: 'sat_minimal', extended: 'sat_extended', ...Object.fromEntries(OTHER_SOLVERS.map((s) => [s, `sat_${s}`])) };
const SOURCE_OF_BLOCK: Record<string, string> = Object.fromEntries(Object.entries(BLOCK_OF).map(([source, block]) => [block, source]));
const keysOf = (source: string): readonly string[] => (source === 'human' ? HUMAN_KEYS : SAT_KEYS);

function metric(source: string, key: string, spelling: string): Metric {
  if (!keysOf(source).includes(key)) throw unknownMetric(spelling, `'${key}' is not a ${source === 'human' ? 'human-solver' : 'solver'} metric (${keysOf(source).join(', ')})`);
  const block = BLOCK_OF[source];
  return { name: `${source}_${key}`, path: [block, key], field: `metrics.${block}.${key}` };
}

function unknownMetric(spelling: string, why: string): MetricNameError {
  return new MetricNameError(
    `unknown metric '${spelling}': ${why}. A metric is <source>_<key>: sat_<key> or dfa_<key> (${SAT_KEYS.join(', ')}), human_<key> (${HUMAN_KEYS.slice(0, 4).join(', ')}, ...), or <solver>_<key> for ${OTHER_SOLVERS.join(', ')}; e.g. sat_conflicts, human_level (also accepted: a bare key such as conflicts, or a path such as human.level)`,
  );
}

const known = new Map<string, Metric>();

/** The metric a name or an old spelling means; a MetricNameError (listing the accepted forms) for anything else. */
export function metricOf(spelling: string): Metric {
  let m = known.get(spelling);
  if (!m) known.set(spelling, (m = parseMetric(spelling)));
  return m;
}

function parseMetric(spelling: string): Metric {
  const s = spelling.trim();
  if (s.includes('.')) {
    const [block, key, ...rest] = s.split('.');
    const source = SOURCE_OF_BLOCK[block];
    if (!source || rest.length || !key) throw unknownMetric(spelling, `no metrics block '${block}' (sat, sat_dfa, human, ${OTHER_SOLVERS.map((o) => `sat_${o}`).join(', ')})`);
    return metric(source, key, spelling);
  }
  if ((SAT_KEYS as readonly string[]).includes(s)) return metric('sat', s, spelling);
  if ((HUMAN_KEYS as readonly string[]).includes(s)) return metric('human', s, spelling);
  const cut = s.indexOf('_');
  const source = cut > 0 ? s.slice(0, cut) : '';
  if (!(source in BLOCK_OF)) throw unknownMetric(spelling, cut > 0 ? `no source '${source}'` : 'not a metric name');
  return metric(source, s.slice(cut + 1), spelling);
}

/** The source of a metric name (sat, dfa, gac, human, minimal, extended or an outside solver's name). */
export function measureSourceOf(spelling: string): string {
  return SOURCE_OF_BLOCK[metricOf(spelling).path[0]];
}

/** The metric's value on a puzzle (a boolean counts as 0/1), or null when the puzzle does not carry it. */
export function metricValueOf(p: Pick<Puzzle, 'metrics'>, m: Metric): number | null {
  const block = (p.metrics as Record<string, unknown> | undefined)?.[m.path[0]];
  const v = block !== null && typeof block === 'object' ? (block as Record<string, unknown>)[m.path[1]] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null;
}

/** A command's metric option read with metricOf: the metric, or null once the error is printed (exit code 2). */
export function metricOption(flag: string, spelling: string): Metric | null {
  try {
    return metricOf(spelling);
  } catch (err) {
    if (!(err instanceof MetricNameError)) throw err;
    console.error(`${flag}: ${err.message}`);
    process.exitCode = 2;
    return null;
  }
}
