// The pause stage of the analysis: the gap mixture (1..4 components), the threshold under each rule, and pauses counted per attempt.
/*
 * The paper's rule: a Gaussian mixture on the log gaps of the analysed attempts (1..4 components, BIC), the
 * threshold where the weighted densities of components 2 and 3 of the three-component fit are equal; a gap longer
 * than the threshold is a pause. With too few gaps or no crossing the paper's 2.36 s stands in (and a warning says
 * so); a number given on the command line overrides the fit. The same gaps under the other rules (two components,
 * the paper's number) go to pauses.json as a sensitivity table, and component 1 is checked against the drag speed
 * the paper reads it as.
 */
import { fitGmm, gmmSelectFromFits, crossingPoint, distinctLogGaps, type GmmSelection, type GmmFit, type WeightedValues } from '../stats/index.ts';
import type { AttemptRow } from '../../shared/signals/index.ts';
import type { GapColumns } from './extract.ts';

export const PAPER_THRESHOLD_S = 2.36;
/** The paper's first gap component (drag-filling): a mean of about 0.01 s. */
export const PAPER_DRAG_GAP_S = 0.01;
/** Component 1 is "far from drag speed" when its median and the drag speed differ by more than this factor. */
export const DRAG_SPEED_FACTOR = 3;

/** Fit a mixture with each number of components in `ks` on the same data and seed; fits in the order of ks. */
export type FitGmms = (data: WeightedValues, ks: number[], seed: number) => Promise<GmmFit[]>;

export async function fitGmmsInline(data: WeightedValues, ks: number[], seed: number): Promise<GmmFit[]> {
  return ks.map((k) => fitGmm(data, { components: k, seed }));
}

/** One way of setting the pause threshold and the pauses it gives (pauses.json `sensitivity`). */
export interface ThresholdRule {
  /** gmm3: components 2 and 3 of the three-component fit (the paper's rule); gmm2: components 1 and 2 of the two-component fit; paper: the paper's fixed 2.36 s; given: --pause-threshold. */
  rule: 'gmm3' | 'gmm2' | 'paper' | 'given';
  /** null: the fit gave no crossing between the two components' means. */
  threshold_s: number | null;
  /** Gaps longer than the threshold over all analysed attempts. */
  pauses: number | null;
  /** Mean pauses per attempt. */
  mean_pauses: number | null;
  /** The rule whose threshold counts the pauses of attempts.csv. */
  used: boolean;
}

export interface PausesSummary {
  /** 'cell': a timed stroke gives one gap per cell (the paper's gaps); 'action': one per action. */
  gap_level: 'cell' | 'action';
  /** Gaps inside drag strokes (between two cells of one timed stroke) and their median (null when none). */
  drag_gaps: number;
  drag_median_s: number | null;
  /** Median (exp of the mean) of component 1 of the three-component fit; null without that fit. */
  component1_median_s: number | null;
  /** The threshold under each rule, with the pauses each gives. */
  sensitivity: ThresholdRule[];
  n: number;
  dropped_zero: number;
  components: { weight: number; mean: number; variance: number; median_s: number }[];
  threshold_s: number;
  threshold_source: 'gmm' | 'given' | 'paper-default';
  bic: Record<string, number>;
  delta_bic: number;
  best_components: number;
  fit_ms: number;
  /** A study of several puzzle kinds: each kind's own summary (the fields above are the first kind's). */
  by_kind?: Record<string, PausesSummary>;
}

/** Pauses per attempt: gaps longer than the threshold, from the gap columns. */
function countPauses(attempts: readonly AttemptRow[], gaps: GapColumns, threshold: number): AttemptRow[] {
  const count = new Int32Array(attempts.length);
  const time = new Float64Array(attempts.length);
  for (let k = 0; k < gaps.length; k++)
    if (gaps.gap[k] > threshold) {
      count[gaps.attempt[k]]++;
      time[gaps.attempt[k]] += gaps.gap[k];
    }
  return attempts.map((a, i) => ({ ...a, pauses: count[i], pause_time_s: Math.round(time[i] * 1000) / 1000, pause_threshold_s: threshold }));
}

/** Gaps inside drag strokes (cell > 0: between two cells of one timed stroke): how many and their median (s). */
export function dragGaps(gaps: GapColumns): { n: number; median: number | null } {
  let n = 0;
  for (let k = 0; k < gaps.length; k++) if (gaps.cell[k] > 0) n++;
  if (n === 0) return { n: 0, median: null };
  const inside = new Float64Array(n);
  for (let k = 0, i = 0; k < gaps.length; k++) if (gaps.cell[k] > 0) inside[i++] = gaps.gap[k];
  inside.sort(); // numeric order (a typed array's), as (a, b) => a - b gives for numbers that are not NaN
  const m = inside.length >> 1;
  return { n: inside.length, median: inside.length % 2 ? inside[m] : (inside[m - 1] + inside[m]) / 2 };
}

/**
 * The paper reads component 1 of the three-component fit as drag-filling (mean ~0.01 s). A warning when it is far
 * (a factor DRAG_SPEED_FACTOR) from the drag speed: the median gap inside timed strokes, or the paper's 0.01 s when
 * the logs have none (then also saying why there are none). Null when component 1 matches or there is no fit.
 */
export function dragSpeedWarning(component1S: number | null, drag: { n: number; median: number | null }, level: 'cell' | 'action'): string | null {
  if (component1S === null) return null;
  const speed = drag.median !== null && drag.median > 0 ? drag.median : PAPER_DRAG_GAP_S;
  const ratio = Math.max(component1S / speed, speed / component1S);
  if (ratio <= DRAG_SPEED_FACTOR) return null;
  const c1 = `component 1 of the three-component gap mixture (median ${fmtS(component1S)})`;
  if (drag.median !== null) return `${c1} is far from drag speed (median gap inside drag strokes ${fmtS(drag.median)} over ${drag.n} gaps): it is not the drag-filling component the paper's rule assumes`;
  const why = level === 'action' ? 'gaps were built at the action level' : 'no stroke in these logs carries cell times (cell_ms)';
  return `${c1} is far from the paper's drag speed (~${PAPER_DRAG_GAP_S} s) and there are no gaps inside drag strokes (${why}): it is not the drag-filling component the paper's rule assumes`;
}

const fmtS = (s: number) => `${Number(s.toPrecision(3))} s`;

/** The pause threshold under each rule (3 vs 2 components, the paper's 2.36 s, a given number) and the pauses each gives. */
export function thresholdSensitivity(gaps: GapColumns, attempts: number, selection: GmmSelection | null, given: number | null, source: PausesSummary['threshold_source']): ThresholdRule[] {
  const count = (t: number | null) => {
    if (t === null) return { pauses: null, mean_pauses: null };
    let n = 0;
    for (let k = 0; k < gaps.length; k++) if (gaps.gap[k] > t) n++;
    return { pauses: n, mean_pauses: attempts ? n / attempts : null };
  };
  const crossing = (fit: GmmFit | undefined, a: number, b: number) => {
    if (!fit) return null;
    const x = crossingPoint(fit, a, b);
    return x === null ? null : Math.exp(x);
  };
  const rows: ThresholdRule[] = [];
  const add = (rule: ThresholdRule['rule'], t: number | null, used: boolean) => rows.push({ rule, threshold_s: t, ...count(t), used });
  add('gmm3', crossing(selection?.fits[2], 1, 2), source === 'gmm');
  add('gmm2', crossing(selection?.fits[1], 0, 1), false);
  add('paper', PAPER_THRESHOLD_S, source === 'paper-default');
  if (given !== null) add('given', given, source === 'given');
  return rows;
}

/** What the pause stage needs of the analysis options. */
export interface PauseOptions {
  /** 'auto' (mixture fit) or seconds. */
  pauseThreshold: 'auto' | number;
  gapLevel?: 'cell' | 'action';
  seed?: number;
  /** Fits the mixtures for each number of components (default: in turn in this thread; see startGmmWorker in workers.ts). */
  fitGmms?: FitGmms;
}

/** Stage (2): the threshold from the gaps (or as given), the pauses summary, and the attempts with their pauses counted; warnings are appended. */
export async function pauseStage(gaps: GapColumns, attemptsIn: readonly AttemptRow[], options: PauseOptions, warnings: string[]): Promise<{ pauses: PausesSummary; attempts: AttemptRow[] }> {
  const t0 = performance.now();
  const logValues = distinctLogGaps(gaps.gap);
  const dropped = logValues.dropped;
  let selection: GmmSelection | null = null;
  // As gmmSelect(logValues, { maxComponents: 4, components: 3, seed }), the fits possibly on two threads.
  const fitting = logValues.n >= 8 ? (options.fitGmms ?? fitGmmsInline)(logValues, [1, 2, 3, 4], options.seed ?? 1) : null;
  // (while a mixture worker fits, this thread has time to spare)
  const drag = dragGaps(gaps);
  if (fitting) {
    try {
      const fits = await fitting;
      selection = gmmSelectFromFits(fits, 3);
    } catch (err) {
      warnings.push(`mixture fit failed: ${(err as Error).message}`);
    }
  } else warnings.push(`only ${logValues.n} positive gaps: no mixture fit`);
  const fitMs = performance.now() - t0;
  let threshold: number;
  let source: PausesSummary['threshold_source'];
  if (typeof options.pauseThreshold === 'number') {
    threshold = options.pauseThreshold;
    source = 'given';
  } else if (selection?.threshold_s != null) {
    threshold = selection.threshold_s;
    source = 'gmm';
  } else {
    threshold = PAPER_THRESHOLD_S;
    source = 'paper-default';
    warnings.push(`the mixture gave no threshold between components 2 and 3; using the paper's ${PAPER_THRESHOLD_S} s`);
  }
  const pauses: PausesSummary = {
    gap_level: options.gapLevel ?? 'cell',
    drag_gaps: 0,
    drag_median_s: null,
    component1_median_s: null,
    sensitivity: [],
    n: logValues.n,
    dropped_zero: dropped,
    components: (selection?.components ?? []).map((c) => ({ ...c, median_s: Math.exp(c.mean) })),
    threshold_s: threshold,
    threshold_source: source,
    bic: selection?.bic ?? {},
    delta_bic: selection?.delta_bic ?? NaN,
    best_components: selection?.best_components ?? 0,
    fit_ms: fitMs,
  };
  const attempts = countPauses(attemptsIn, gaps, threshold);
  pauses.sensitivity = thresholdSensitivity(gaps, attempts.length, selection, typeof options.pauseThreshold === 'number' ? options.pauseThreshold : null, source);
  pauses.drag_gaps = drag.n;
  pauses.drag_median_s = drag.median;
  const c1 = selection?.fits[2]?.components[0];
  pauses.component1_median_s = c1 ? Math.exp(c1.mean) : null;
  // Drag-filling is a Nonogram's (a Sudoku is played one digit at a time: no strokes, so no component to check).
  const drags = attemptsIn.some((a) => (a.kind ?? 'nonogram') === 'nonogram');
  const dragWarning = drags ? dragSpeedWarning(pauses.component1_median_s, drag, pauses.gap_level) : null;
  if (dragWarning) warnings.push(dragWarning);
  return { pauses, attempts };
}
