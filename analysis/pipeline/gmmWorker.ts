// Worker thread body: fit the pause mixtures it is asked for (each number of components on the same weighted data), or write gaps.csv, and post the outcome back.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fitGmm } from '../stats/gmm.ts';
import { gapsCsvBytes } from './io.ts';
import type { GapColumns } from './extract.ts';

export type GmmWorkerJob =
  | { type: 'fit'; x: Float64Array; cnt: Float64Array; ks: number[]; seed: number }
  | { type: 'prepare'; file: string; keys: string[]; gaps: GapColumns; threshold: number }
  | { type: 'written' };

// gaps.csv is built and written to a temporary file (`prepare`, no answer) as soon as the threshold is known; `written`
// answers once that is done (jobs run in order), and the main thread renames the file into place when it writes the
// other tables (a failed analysis removes it: no gaps.csv is left behind).
let prepared: { file: string } | { error: string } | null = null;

parentPort!.on('message', (m: GmmWorkerJob) => {
  if (m.type === 'prepare') {
    try {
      writeFileSync(m.file, gapsCsvBytes(m.keys, m.gaps, m.threshold));
      prepared = { file: m.file };
    } catch (err) {
      prepared = { error: (err as Error).message };
    }
    return;
  }
  try {
    if (m.type === 'fit') parentPort!.postMessage({ fits: m.ks.map((k) => fitGmm({ x: m.x, cnt: m.cnt }, { components: k, seed: m.seed })) });
    else {
      if (prepared === null) throw new Error('gaps.csv was not prepared');
      if ('error' in prepared) throw new Error(prepared.error);
      parentPort!.postMessage({ written: prepared.file });
      prepared = null;
    }
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
