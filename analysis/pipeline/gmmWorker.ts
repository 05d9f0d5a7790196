// Worker thread body: the puzzles' missing encodings (sat_gac) while the logs are read, the three-component pause mixture (its first starts screened here, the last ones by the main thread: a 'split' fit), gaps.csv built as soon as the threshold is known, and the measure comparison.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { gmmFinish, gmmPlan, gmmScreen, type GmmPlan, type GmmScreened } from '../stats/gmm.ts';
import { gapsCsvBytes } from './io.ts';
import type { GapColumns } from './extract.ts';
import { compareMeasures, withEveryEncoding, type CompareOptions, type MeasureComparison } from './measures.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import type { AttemptRow } from '../../shared/signals/index.ts';

export type GmmWorkerJob =
  /** One fit whose screened starts are shared: this worker screens every start but `elsewhere`, whose results come in a 'screens' job. */
  | { type: 'split'; x: Float64Array; cnt: Float64Array; k: number; seed: number; elsewhere: number[] }
  | { type: 'screens'; screened: { index: number; result: GmmScreened }[] }
  | { type: 'prepare'; file: string; keys: string[]; gaps: GapColumns; threshold: number }
  | { type: 'written' }
  /** The study's puzzles: their missing encodings are computed now (no answer), for a later 'measures' job. */
  | { type: 'puzzles'; puzzles: Puzzle[] }
  /** The measure comparison on the puzzles given before: answers { measures } or { error }. */
  | { type: 'measures'; attempts: AttemptRow[]; options: Omit<CompareOptions, 'encoded'> };

/** The worker's answer to a 'measures' job. */
export type MeasuresAnswer = { measures: MeasureComparison } | { error: string };

// gaps.csv is built and written to a temporary file (`prepare`, no answer) as soon as the threshold is known; `written`
// answers once that is done (jobs run in order), and the main thread renames the file into place when it writes the
// other tables (a failed analysis removes it: no gaps.csv is left behind).
let prepared: { file: string } | { error: string } | null = null;

// The split fit in progress: its plan and the screened starts so far (this thread's, then the other's).
let split: { plan: GmmPlan; screened: (GmmScreened | undefined)[] } | null = null;
const finishSplit = () => {
  if (!split || split.screened.some((r) => r === undefined)) return;
  const { plan, screened } = split;
  split = null;
  parentPort!.postMessage({ fits: [gmmFinish(plan, screened as GmmScreened[])] });
};

// The puzzles with every encoding (computed on 'puzzles', read on 'measures').
let encoded: { puzzles: Puzzle[]; computed: string[] } | { error: string } | null = null;

parentPort!.on('message', (m: GmmWorkerJob) => {
  if (m.type === 'puzzles') {
    try {
      encoded = withEveryEncoding(m.puzzles);
    } catch (err) {
      encoded = { error: (err as Error).message };
    }
    return;
  }
  if (m.type === 'measures') {
    let answer: MeasuresAnswer;
    try {
      if (encoded === null) throw new Error('the measure comparison was given no puzzles');
      if ('error' in encoded) throw new Error(encoded.error);
      answer = { measures: compareMeasures(encoded.puzzles, m.attempts, { ...m.options, encoded }) };
    } catch (err) {
      answer = { error: (err as Error).message };
    }
    parentPort!.postMessage(answer);
    return;
  }
  if (m.type === 'split' || m.type === 'screens') {
    try {
      if (m.type === 'split') {
        const plan = gmmPlan({ x: m.x, cnt: m.cnt }, { components: m.k, seed: m.seed });
        split = { plan, screened: plan.inits.map(() => undefined) };
        plan.inits.forEach((init, i) => {
          if (!m.elsewhere.includes(i)) split!.screened[i] = gmmScreen(plan, init);
        });
      } else if (split) for (const { index, result } of m.screened) split.screened[index] = result;
      finishSplit();
    } catch (err) {
      split = null;
      parentPort!.postMessage({ error: (err as Error).message });
    }
    return;
  }
  if (m.type === 'prepare') {
    try {
      writeFileSync(m.file, gapsCsvBytes(m.keys, m.gaps, m.threshold));
      prepared = { file: m.file };
    } catch (err) {
      prepared = { error: (err as Error).message };
    }
    return;
  }
  if (prepared === null) parentPort!.postMessage({ error: 'gaps.csv was not prepared' });
  else if ('error' in prepared) parentPort!.postMessage({ error: prepared.error });
  else parentPort!.postMessage({ written: prepared.file });
  prepared = null;
});
