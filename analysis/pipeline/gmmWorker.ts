// Worker thread body: fit the pause mixtures it is asked for (each number of components on the same weighted data) and post them back.
import { parentPort } from 'node:worker_threads';
import { fitGmm } from '../stats/gmm.ts';

parentPort!.on('message', (m: { x: Float64Array; cnt: Float64Array; ks: number[]; seed: number }) => {
  try {
    parentPort!.postMessage({ fits: m.ks.map((k) => fitGmm({ x: m.x, cnt: m.cnt }, { components: k, seed: m.seed })) });
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
});
