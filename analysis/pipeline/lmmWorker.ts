// Worker thread body: fit the mixed models it is given on the shared data and post the results back.
import { parentPort, workerData } from 'node:worker_threads';
import { fitManyInline } from './analyze.ts';
import type { DataRow } from '../stats/index.ts';

const { data, formulas } = workerData as { data: DataRow[]; formulas: string[] };
parentPort!.postMessage(await fitManyInline(data, formulas));
