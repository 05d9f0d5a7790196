// The report's Vega-Lite compile cache (report.ts: compileVegaLite) gives what vl.compile gives, compiled afresh or
// read back from the cache, for specs that differ only in their inline data and for ones whose data is in the title.
import { describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { compileVegaLite, puzzleMetricSpec } from './report.ts';

const figure = (values: { puzzle: string; value: number; bt: number | null }[]): TopLevelSpec => puzzleMetricSpec('sat_conflicts', values, 'no rating');

describe('compileVegaLite', () => {
  it('equals vl.compile, cold and from the cache, with each spec its own data', async () => {
    const a = figure([{ puzzle: 'p1', value: 3, bt: 0.5 }, { puzzle: 'p2', value: 10, bt: -0.2 }]);
    const b = figure([{ puzzle: 'p1', value: 7, bt: null }, { puzzle: 'p2', value: 1, bt: 1.5 }, { puzzle: 'p3', value: 4, bt: 0 }]);
    for (let round = 0; round < 2; round++)
      for (const spec of [a, b]) expect(await compileVegaLite(spec)).toEqual(JSON.parse(JSON.stringify(compile(structuredClone(spec)).spec)));
  });
});
