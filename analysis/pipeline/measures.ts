// Which measure tracks human difficulty (issue 36): every measure the study's puzzles carry (each encoding's MiniSat
// statistics, each outside solver's, each logic grade), side by side against the ratings and the behaviour.
/*
 * For each measure and each target (the Bradley-Terry score, the mean rating, and the mean time, pauses, errors and
 * hints of the puzzle's attempts):
 *   - Spearman's rho over the puzzles with its p (SciPy's t approximation) and exact permutation p (n <= 9), the
 *     paper's Table 1 rule;
 *   - a 95 % percentile bootstrap interval of rho over participants: participants are drawn with replacement, the
 *     puzzles' targets (and, for bt_score, the Bradley-Terry fit) recomputed from the drawn participants' attempts;
 *   - for the two difficulty targets, the paper's Table 2 model `difficulty ~ measure * expertise + (1|participant) +
 *     (1|puzzle)` (the measure standardised over the puzzles), so the expertise moderation is seen per measure.
 * The ranking of a target orders the measures by |rho|, ties (measures that order the puzzles alike, frequent with
 * six puzzles) by |t| of the measure in the Table 2 model (difficulty targets) and then by the bootstrap's mean
 * |rho|. Two measures whose intervals overlap cannot be told apart by the study: `nonolab plan` sizes the study that
 * could. The measures are read from the puzzles' `metrics` blocks by the one naming scheme (analysis/metric.ts), so
 * the comparison does not depend on the puzzle kind; a Nonogram without `metrics.sat_gac` gets it computed here.
 */
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import type { AttemptRow } from '../../shared/signals/index.ts';
import { createRng } from '../../shared/random.ts';
import { satGacStats, satMetricsRecord } from '../../shared/sat/metrics.ts';
import { averageRanks, bradleyTerry, pairsFromRatings, pearson, spearman, fitLmm, LmmData, type DataRow } from '../stats/index.ts';
import { btItemOrder, btLogAbilities } from '../stats/bradleyTerry.ts';
import { measureSourceOf, metricOf, metricValueOf, SAT_KEYS, HUMAN_KEYS } from '../metric.ts';

/** The paper's measure: MiniSat's conflicts on the block-start encoding. */
export const PAPER_MEASURE = 'sat_conflicts';
export const TARGETS = ['bt_score', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints'] as const;
export type Target = (typeof TARGETS)[number];
const DIFFICULTY_TARGETS: readonly Target[] = ['bt_score', 'mean_difficulty'];
export const BOOTSTRAP_REPS = 1000;

/** What a measure's source is: its family, encoding or ladder, what its unit propagation decides, a reference. */
export interface MeasureSource {
  source: string;
  family: 'encoding' | 'solver' | 'logic';
  encoding: string;
  expressiveness: string;
  reference: string;
}

export const MEASURE_SOURCES: Record<string, MeasureSource> = {
  sat: { source: 'sat', family: 'encoding', encoding: 'block-start (Nonogram)', expressiveness: 'weakest: unit propagation fixes a cell only through single block-start clauses, less than line solving', reference: 'the reference paper (Table 1); Bosch 2001' },
  dfa: { source: 'dfa', family: 'encoding', encoding: 'DFA (Nonogram)', expressiveness: 'middle: unit propagation follows each line automaton forwards, not the complete line fixpoint', reference: 'Foote & Krizanc' },
  gac: { source: 'gac', family: 'encoding', encoding: 'line-GAC (Nonogram)', expressiveness: 'strongest: unit propagation is complete line solving (generalised arc consistency of every line)', reference: 'Bacchus 2007 (regular constraint by CNF); shared/sat/lineGac.ts' },
  minimal: { source: 'minimal', family: 'encoding', encoding: 'minimal (Sudoku)', expressiveness: 'unit propagation: naked singles only', reference: 'Lynce & Ouaknine 2006' },
  extended: { source: 'extended', family: 'encoding', encoding: 'extended (Sudoku)', expressiveness: 'unit propagation: naked and hidden singles', reference: 'Lynce & Ouaknine 2006' },
  human: { source: 'human', family: 'logic', encoding: 'human-style solver (Nonogram: overlap, line solving, probing, search; Sudoku: the technique ladder)', expressiveness: 'a grade, not an encoding: the weakest reasoning that solves the puzzle and how much of it', reference: 'Batenburg & Kosters 2009; pbnsolve (line / depth-2 / search); docs/sudoku.md' },
};
const solverSource = (source: string): MeasureSource => ({ source, family: 'solver', encoding: 'block-start (Nonogram)', expressiveness: `another CDCL solver (${source}) on the paper's encoding`, reference: `measure --solvers ${source}` });

/** A measure's source description (an outside solver's for any other source). */
export function measureSource(name: string): MeasureSource {
  const source = measureSourceOf(name);
  return MEASURE_SOURCES[source] ?? solverSource(source);
}

export interface MeasureRow {
  measure: string;
  family: string;
  encoding: string;
  target: Target;
  /** 1 = tracks the target best among the measures. */
  rank: number;
  n: number;
  rho: number;
  p: number;
  p_exact: number | null;
  ci_low: number;
  ci_high: number;
  /** Bootstrap replicates whose rho was defined. */
  boot_n: number;
  /** Table 2 per measure (difficulty targets only; null otherwise or when the fit failed). */
  lmm_measure: number | null;
  lmm_measure_se: number | null;
  lmm_measure_t: number | null;
  lmm_measure_p: number | null;
  lmm_expertise: number | null;
  lmm_interaction: number | null;
  lmm_interaction_se: number | null;
  lmm_interaction_p: number | null;
  var_participant: number | null;
  var_puzzle: number | null;
  var_residual: number | null;
  lmm_intercept: number | null;
}

export interface MeasureComparison {
  rows: MeasureRow[];
  measures: string[];
  /** Measures left out, with why (constant over the puzzles, missing on some). */
  left_out: { measure: string; why: string }[];
  puzzles: number;
  participants: number;
  reps: number;
  seed: number;
  /** Sudoku or Nonogram measures whose values were computed here (sat_gac of a Nonogram without it). */
  computed: string[];
  /** How the study's puzzles were selected (the config's `selection`, from `select --scheme spread --config`), if recorded. */
  selection?: { scheme: string; metrics?: string[]; rationale: string } | null;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** Every numeric measure every puzzle carries, the paper's first, then in the order the blocks and keys come. */
export function studyMeasures(puzzles: readonly Puzzle[]): { measures: string[]; left_out: { measure: string; why: string }[] } {
  const names: string[] = [];
  for (const p of puzzles)
    for (const [block, values] of Object.entries(p.metrics ?? {})) {
      if (values === null || typeof values !== 'object') continue;
      for (const key of Object.keys(values)) {
        let name: string;
        try {
          name = metricOf(`${block}.${key}`).name;
        } catch {
          continue;
        }
        if (!names.includes(name)) names.push(name);
      }
    }
  // keep the documented key order within each source
  const order = (n: string) => {
    const src = measureSourceOf(n);
    const key = n.slice(src.length + 1);
    const keys: readonly string[] = src === 'human' ? HUMAN_KEYS : SAT_KEYS;
    return [n === PAPER_MEASURE ? 0 : 1, Object.keys(MEASURE_SOURCES).indexOf(src) === -1 ? 99 : Object.keys(MEASURE_SOURCES).indexOf(src), keys.indexOf(key)];
  };
  names.sort((a, b) => {
    const x = order(a), y = order(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || (a < b ? -1 : a > b ? 1 : 0);
  });
  const measures: string[] = [];
  const left_out: { measure: string; why: string }[] = [];
  for (const m of names) {
    const vals = puzzles.map((p) => metricValueOf(p, metricOf(m)));
    if (vals.some((v) => v === null)) left_out.push({ measure: m, why: 'missing on some puzzles' });
    else if (vals.every((v) => v === vals[0])) left_out.push({ measure: m, why: `constant (${vals[0]}) over the ${vals.length} puzzles` });
    else measures.push(m);
  }
  return { measures, left_out };
}

/** A Nonogram without metrics.sat_gac gets MiniSat's line-GAC statistics (the comparison covers every encoding). */
export function withEveryEncoding(puzzles: readonly Puzzle[]): { puzzles: Puzzle[]; computed: string[] } {
  const computed: string[] = [];
  const out = puzzles.map((p): Puzzle => {
    if (p.metrics?.sat_gac || !Array.isArray(p.rows) || !Array.isArray(p.cols)) return p;
    computed.push(p.id);
    const clues = { rows: p.rows, cols: p.cols };
    // (only the missing encodings are solved: most puzzle sets carry sat and sat_dfa, from `measure` or `generate --sat`)
    const rec = p.metrics?.sat && p.metrics?.sat_dfa ? { sat: undefined, sat_dfa: undefined, sat_gac: satGacStats(clues) } : satMetricsRecord(clues, { encodings: 'all' });
    return { ...p, metrics: { ...(p.metrics ?? {}), sat: p.metrics?.sat ?? rec.sat, sat_dfa: p.metrics?.sat_dfa ?? rec.sat_dfa, sat_gac: { ...rec.sat_gac } } as unknown as Puzzle['metrics'] };
  });
  return { puzzles: out, computed };
}

/** Each puzzle's targets from a list of attempts (the drawn participants' in a bootstrap replicate). */
function targetsOf(puzzleIds: readonly string[], attempts: readonly { a: AttemptRow; who: string }[], btTol?: number): Record<Target, number[]> {
  const by = new Map<string, AttemptRow[]>(puzzleIds.map((id) => [id, []]));
  for (const { a } of attempts) by.get(a.puzzle_id)?.push(a);
  const finite = (xs: (number | null)[]) => xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  const out = {} as Record<Target, number[]>;
  out.mean_difficulty = puzzleIds.map((id) => mean(finite(by.get(id)!.map((a) => a.difficulty))));
  out.mean_time_s = puzzleIds.map((id) => mean(by.get(id)!.map((a) => a.time_s)));
  out.mean_pauses = puzzleIds.map((id) => mean(finite(by.get(id)!.map((a) => a.pauses))));
  out.mean_errors = puzzleIds.map((id) => mean(by.get(id)!.map((a) => a.errors)));
  out.mean_hints = puzzleIds.map((id) => mean(by.get(id)!.map((a) => a.hints)));
  let bt: Map<string, number> | null = null;
  try {
    const rated = attempts.filter(({ a }) => a.difficulty !== null).map(({ a, who }) => ({ participant: who, item: a.puzzle_id, rating: a.difficulty! }));
    bt = new Map(bradleyTerry(pairsFromRatings(rated), btTol === undefined ? {} : { tol: btTol }).items.map((i) => [i.item, i.log_ability]));
  } catch {
    bt = null;
  }
  out.bt_score = puzzleIds.map((id) => bt?.get(id) ?? NaN);
  return out;
}

/**
 * The bootstrap's targets, replicate after replicate, without building attempt lists: each participant's attempts and
 * within-participant rating pairs are tallied once, and a replicate adds up its drawn participants'. The numbers are
 * targetsOf's on the drawn attempts to the bit: every mean sums the same values in the same order (draw by draw, each
 * participant's attempts in order), and Bradley-Terry gets the same counts (whole and half numbers, exact in any order)
 * on the same items in the same order, through the same iterations (btLogAbilities). Returns null when it cannot
 * promise that (two puzzle ids the natural order calls equal): the caller then uses targetsOf.
 */
function replicateTargets(puzzleIds: readonly string[], participants: readonly string[], byParticipant: ReadonlyMap<string, readonly AttemptRow[]>, btTol: number): ((drawn: readonly number[]) => Record<Target, number[]>) | null {
  const P = puzzleIds.length;
  const puzzleIndex = new Map(puzzleIds.map((id, i) => [id, i]));
  // Bradley-Terry's items: every puzzle some rating pair names, in the order bradleyTerry sorts them.
  const ratedIds = new Set<string>();
  for (const list of byParticipant.values()) for (const a of list) if (a.difficulty !== null) ratedIds.add(a.puzzle_id);
  const items = btItemOrder(ratedIds);
  for (let i = 1; i < items.length; i++) if (items[i - 1].localeCompare(items[i], 'en', { numeric: true }) === 0) return null;
  const K = items.length;
  const itemIndex = new Map(items.map((id, i) => [id, i]));
  const btColumn = puzzleIds.map((id) => itemIndex.get(id) ?? -1);
  interface Tallied {
    /** puzzle index (-1: not a study puzzle), difficulty, time, pauses, errors, hints of each attempt in order */
    puzzle: Int32Array;
    difficulty: (number | null)[];
    time: number[];
    pauses: (number | null)[];
    errors: number[];
    hints: number[];
    /** rating pairs: winner, loser, tie (1) or not (0), as triples */
    pairs: Int32Array;
    /** a rating pairsFromRatings or the comparison schema refuses (bradleyTerry would throw) */
    bad: boolean;
  }
  const tallied: Tallied[] = participants.map((who) => {
    const list = byParticipant.get(who)!;
    const rated = list.filter((a) => a.difficulty !== null);
    let bad = rated.some((a) => !Number.isFinite(a.difficulty));
    const pairs: number[] = [];
    for (let x = 0; x < rated.length; x++)
      for (let y = x + 1; y < rated.length; y++) {
        const a = rated[x], b = rated[y];
        if (a.puzzle_id === b.puzzle_id) continue;
        if (a.puzzle_id === '' || b.puzzle_id === '') bad = true;
        const i = itemIndex.get(a.puzzle_id)!, j = itemIndex.get(b.puzzle_id)!;
        if (a.difficulty === b.difficulty) pairs.push(i, j, 1);
        else if (a.difficulty! > b.difficulty!) pairs.push(i, j, 0);
        else pairs.push(j, i, 0);
      }
    return {
      puzzle: Int32Array.from(list, (a) => puzzleIndex.get(a.puzzle_id) ?? -1),
      difficulty: list.map((a) => a.difficulty),
      time: list.map((a) => a.time_s),
      pauses: list.map((a) => a.pauses),
      errors: list.map((a) => a.errors),
      hints: list.map((a) => a.hints),
      pairs: Int32Array.from(pairs),
      bad,
    };
  });
  const isFiniteNumber = (x: number | null): x is number => typeof x === 'number' && Number.isFinite(x);
  const sums = Array.from({ length: 5 }, () => new Float64Array(P));
  const counts = Array.from({ length: 5 }, () => new Float64Array(P));
  const wins = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  const ties = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  const named = new Int32Array(K);
  return (drawn) => {
    for (let t = 0; t < 5; t++) {
      sums[t].fill(0);
      counts[t].fill(0);
    }
    for (let i = 0; i < K; i++) {
      wins[i].fill(0);
      ties[i].fill(0);
    }
    named.fill(0);
    let bad = false;
    let anyPair = false;
    for (const d of drawn) {
      const p = tallied[d];
      for (let x = 0; x < p.puzzle.length; x++) {
        const i = p.puzzle[x];
        if (i < 0) continue;
        const dif = p.difficulty[x], pau = p.pauses[x];
        if (isFiniteNumber(dif)) { sums[0][i] += dif; counts[0][i]++; }
        sums[1][i] += p.time[x]; counts[1][i]++;
        if (isFiniteNumber(pau)) { sums[2][i] += pau; counts[2][i]++; }
        sums[3][i] += p.errors[x]; counts[3][i]++;
        sums[4][i] += p.hints[x]; counts[4][i]++;
      }
      if (p.bad) bad = true;
      const q = p.pairs;
      for (let x = 0; x < q.length; x += 3) {
        const i = q[x], j = q[x + 1];
        if (q[x + 2]) { ties[i][j] += 1; ties[j][i] += 1; } else wins[i][j] += 1;
        named[i]++;
        named[j]++;
        anyPair = true;
      }
    }
    const meanOf = (t: number) => puzzleIds.map((_, i) => (counts[t][i] > 0 ? sums[t][i] / counts[t][i] : NaN));
    const out = {} as Record<Target, number[]>;
    out.mean_difficulty = meanOf(0);
    out.mean_time_s = meanOf(1);
    out.mean_pauses = meanOf(2);
    out.mean_errors = meanOf(3);
    out.mean_hints = meanOf(4);
    let lambda: number[] | null = null;
    const present: number[] = [];
    if (!bad && anyPair) {
      for (let i = 0; i < K; i++) if (named[i] > 0) present.push(i);
      try {
        lambda = btLogAbilities(present.map((i) => items[i]), present.map((i) => present.map((j) => wins[i][j])), present.map((i) => present.map((j) => ties[i][j])), { tol: btTol });
      } catch {
        lambda = null;
      }
    }
    const at = new Int32Array(K).fill(-1);
    present.forEach((i, r) => (at[i] = r));
    out.bt_score = btColumn.map((c) => (lambda !== null && c >= 0 && at[c] >= 0 ? lambda[at[c]] : NaN));
    return out;
  };
}

function rhoOf(xs: readonly number[], ys: readonly number[]): { n: number; rho: number; p: number; p_exact: number | null } {
  const pairs = xs.map((x, i) => [x, ys[i]]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  if (pairs.length < 3) return { n: pairs.length, rho: NaN, p: NaN, p_exact: null };
  const r = spearman(pairs.map((q) => q[0]), pairs.map((q) => q[1]));
  return { n: r.n, rho: r.rho, p: r.p, p_exact: r.p_exact };
}

/** Spearman's rho alone (Pearson's r of the average ranks over the complete pairs), for the bootstrap's replicates. */
function rhoOnly(xRanks: readonly number[], xs: readonly number[], ys: readonly number[]): number {
  if (ys.every((y) => Number.isFinite(y))) return pearson(xRanks, averageRanks(ys));
  const keep = ys.map((y, i) => (Number.isFinite(y) && Number.isFinite(xs[i]) ? i : -1)).filter((i) => i >= 0);
  if (keep.length < 3) return NaN;
  return pearson(averageRanks(keep.map((i) => xs[i])), averageRanks(keep.map((i) => ys[i])));
}

/** The q-quantile of sorted values, R's type 7 (numpy's default). */
export function quantile7(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)] ?? sorted[lo]) - sorted[lo]);
}

export interface CompareOptions {
  /** The participants' expertise composite (Table 2's moderator). */
  expertiseOf: Map<string, number>;
  seed?: number;
  reps?: number;
  /** Only these measures (default: every measure the puzzles carry). */
  measures?: readonly string[];
  /** The bootstrap's replicate targets from per-participant tallies (default) or from each replicate's attempt list (the reference the tallies are tested against). */
  replicates?: 'tallied' | 'attempts';
  /** The puzzles as withEveryEncoding(puzzlesIn) gives them, when already computed (e.g. on a worker while the logs were read). */
  encoded?: { puzzles: Puzzle[]; computed: string[] };
}

/** The measure comparison of the study's puzzles (given to the worker beforehand) on another thread: compareMeasures' numbers. */
export type MeasuresOffThread = (attempts: readonly AttemptRow[], options: Omit<CompareOptions, 'encoded'>) => Promise<MeasureComparison>;

/** The comparison of every measure (see the essay above). */
export function compareMeasures(puzzlesIn: readonly Puzzle[], attempts: readonly AttemptRow[], options: CompareOptions): MeasureComparison {
  const { puzzles, computed } = options.encoded ?? withEveryEncoding(puzzlesIn);
  const found = studyMeasures(puzzles);
  const measures = options.measures ? options.measures.map((m) => metricOf(m).name).filter((m) => found.measures.includes(m)) : found.measures;
  const left_out = options.measures ? [...found.left_out.filter((l) => options.measures!.some((m) => metricOf(m).name === l.measure))] : found.left_out;
  const seed = options.seed ?? 1;
  const reps = options.reps ?? BOOTSTRAP_REPS;
  const ids = puzzles.map((p) => p.id);
  const values = new Map(measures.map((m) => [m, puzzles.map((p) => metricValueOf(p, metricOf(m))!)]));
  const ranksOf = new Map(measures.map((m) => [m, averageRanks(values.get(m)!)]));
  const participants = [...new Set(attempts.map((a) => a.participant_id))].sort();
  const byParticipant = new Map<string, AttemptRow[]>(participants.map((p) => [p, []]));
  for (const a of attempts) byParticipant.get(a.participant_id)!.push(a);

  // the observed targets and the bootstrap replicates (over participants; one draw serves every measure)
  const observed = targetsOf(ids, attempts.map((a) => ({ a, who: a.participant_id })));
  const boot = new Map<string, Map<Target, number[]>>(measures.map((m) => [m, new Map(TARGETS.map((t) => [t, []]))]));
  const rng = createRng(seed);
  const fast = participants.length > 0 && options.replicates !== 'attempts' ? replicateTargets(ids, participants, byParticipant, 1e-9) : null;
  const drawnIndex = new Array<number>(participants.length);
  for (let r = 0; r < reps && participants.length > 0; r++) {
    let t: Record<Target, number[]>;
    if (fast) {
      for (let k = 0; k < participants.length; k++) drawnIndex[k] = rng.int(participants.length);
      t = fast(drawnIndex);
    } else {
      const drawn: { a: AttemptRow; who: string }[] = [];
      for (let k = 0; k < participants.length; k++) {
        const who = participants[rng.int(participants.length)];
        for (const a of byParticipant.get(who)!) drawn.push({ a, who: `${who}#${k}` });
      }
      t = targetsOf(ids, drawn, 1e-9);
    }
    for (const target of TARGETS) {
      const ys = t[target];
      // (the ranks of a complete target serve every measure)
      const yRanks = ys.every((y) => Number.isFinite(y)) ? averageRanks(ys) : null;
      for (const m of measures) {
        const rho = yRanks ? pearson(ranksOf.get(m)!, yRanks) : rhoOnly(ranksOf.get(m)!, values.get(m)!, ys);
        if (Number.isFinite(rho)) boot.get(m)!.get(target)!.push(rho);
      }
    }
  }

  // Table 2 per measure
  const z = new Map(measures.map((m) => {
    const v = values.get(m)!;
    const mu = mean(v);
    const sd = Math.sqrt(v.reduce((s, x) => s + (x - mu) ** 2, 0) / Math.max(1, v.length - 1));
    return [m, new Map(ids.map((id, i) => [id, sd > 0 ? (v[i] - mu) / sd : 0]))];
  }));
  const data = new LmmData(attempts.map((a) => {
    const row: DataRow = { participant: a.participant_id, puzzle: a.puzzle_id, difficulty: a.difficulty, expertise: options.expertiseOf.get(a.participant_id) ?? null };
    for (const m of measures) row[m] = z.get(m)!.get(a.puzzle_id)!;
    return row;
  }));
  const lmmOf = new Map<string, Partial<MeasureRow>>();
  for (const m of measures) {
    try {
      const fit = fitLmm(data, `difficulty ~ ${m} * expertise + (1|participant) + (1|puzzle)`);
      const term = (name: string) => fit.fixed.find((f) => f.term === name) ?? null;
      const me = term(m), ia = term(`${m}:expertise`), ex = term('expertise'), ic = term('(Intercept)');
      lmmOf.set(m, {
        lmm_measure: me?.estimate ?? null, lmm_measure_se: me?.se ?? null, lmm_measure_t: me?.t ?? null, lmm_measure_p: me?.p ?? null,
        lmm_expertise: ex?.estimate ?? null, lmm_interaction: ia?.estimate ?? null, lmm_interaction_se: ia?.se ?? null, lmm_interaction_p: ia?.p ?? null,
        var_participant: fit.variances.participant ?? null, var_puzzle: fit.variances.puzzle ?? null, var_residual: fit.variances.residual ?? null, lmm_intercept: ic?.estimate ?? null,
      });
    } catch {
      lmmOf.set(m, {});
    }
  }
  const noLmm = { lmm_measure: null, lmm_measure_se: null, lmm_measure_t: null, lmm_measure_p: null, lmm_expertise: null, lmm_interaction: null, lmm_interaction_se: null, lmm_interaction_p: null, var_participant: null, var_puzzle: null, var_residual: null, lmm_intercept: null };

  const rows: MeasureRow[] = [];
  for (const target of TARGETS) {
    const block: MeasureRow[] = measures.map((m) => {
      const r = rhoOf(values.get(m)!, observed[target]);
      const reps = [...boot.get(m)!.get(target)!].sort((a, b) => a - b);
      const src = measureSource(m);
      return { measure: m, family: src.family, encoding: src.encoding, target, rank: 0, ...r, ci_low: quantile7(reps, 0.025), ci_high: quantile7(reps, 0.975), boot_n: reps.length, ...noLmm, ...(DIFFICULTY_TARGETS.includes(target) ? lmmOf.get(m) : {}) };
    });
    const bootMean = new Map(measures.map((m) => [m, mean(boot.get(m)!.get(target)!.map(Math.abs))]));
    const key = (row: MeasureRow) => [Number.isFinite(row.rho) ? Math.abs(row.rho) : -1, Math.abs(row.lmm_measure_t ?? 0), bootMean.get(row.measure) ?? 0];
    const ranked = [...block].sort((a, b) => {
      const x = key(a), y = key(b);
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    ranked.forEach((row, i) => (row.rank = i + 1));
    rows.push(...block);
  }
  return { rows, measures, left_out, puzzles: ids.length, participants: participants.length, reps, seed, computed };
}

/** The ranking of one target: the paper's measure first (as the reference row), then every measure by rank. */
export function rankingOf(c: MeasureComparison, target: Target): MeasureRow[] {
  const rows = c.rows.filter((r) => r.target === target).sort((a, b) => a.rank - b.rank);
  const paper = rows.find((r) => r.measure === PAPER_MEASURE);
  return paper ? [paper, ...rows] : rows;
}

/** Two intervals overlap: the study cannot tell the two measures apart. */
export const overlaps = (a: Pick<MeasureRow, 'ci_low' | 'ci_high'>, b: Pick<MeasureRow, 'ci_low' | 'ci_high'>): boolean => !(a.ci_low > b.ci_high || b.ci_low > a.ci_high);

/** In plain words: which measures the study can and cannot tell apart from the best one, for one target. */
export function separationStatement(c: MeasureComparison, target: Target = 'mean_difficulty'): string {
  const rows = c.rows.filter((r) => r.target === target && Number.isFinite(r.rho)).sort((a, b) => a.rank - b.rank);
  if (rows.length < 2) return `Fewer than two measures have a defined rho with ${target}: nothing to compare.`;
  const [best, ...rest] = rows;
  const same = rest.filter((r) => overlaps(best, r)).map((r) => r.measure);
  const apart = rest.filter((r) => !overlaps(best, r)).map((r) => r.measure);
  const parts = [`${best.measure} tracks ${target} best (rho ${best.rho.toFixed(3)}, 95% interval ${best.ci_low.toFixed(3)} to ${best.ci_high.toFixed(3)} over ${c.participants} participants).`];
  if (same.length) parts.push(`With ${c.puzzles} puzzles this study cannot tell it apart from ${same.length === rest.length ? 'any other measure' : `${same.length} of the ${rest.length} others`} (their intervals overlap): ${same.join(', ')}.`);
  if (apart.length) parts.push(`It is told apart from ${apart.join(', ')} (intervals do not overlap).`);
  if (same.length) parts.push(`To size a study that could separate two of them: nonolab plan --analysis <this output> --candidates <puzzle pool> --measures ${best.measure},${same[0]}.`);
  return parts.join(' ');
}

export const MEASURE_COLUMNS = ['measure', 'family', 'encoding', 'target', 'rank', 'n', 'rho', 'p', 'p_exact', 'ci_low', 'ci_high', 'boot_n', 'lmm_intercept', 'lmm_measure', 'lmm_measure_se', 'lmm_measure_t', 'lmm_measure_p', 'lmm_expertise', 'lmm_interaction', 'lmm_interaction_se', 'lmm_interaction_p', 'var_participant', 'var_puzzle', 'var_residual'] as const;
