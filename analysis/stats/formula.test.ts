import { describe, expect, it } from 'vitest';
import { parseFormula } from './formula.ts';

describe('parseFormula', () => {
  it('expands * and orders terms as R does', () => {
    expect(parseFormula('difficulty ~ conflicts * expertise + (1|participant) + (1|puzzle)')).toEqual({
      response: 'difficulty', intercept: true,
      terms: [['conflicts'], ['expertise'], ['conflicts', 'expertise']], random: ['participant', 'puzzle'],
    });
    expect(parseFormula('y ~ a*b*c - a:b').terms).toEqual([['a'], ['b'], ['c'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c']]);
    expect(parseFormula('y ~ x:z + x').terms).toEqual([['x'], ['x', 'z']]);
    expect(parseFormula('y ~ (a + b):c').terms).toEqual([['a', 'c'], ['b', 'c']]);
  });
  it('handles the intercept and spacing', () => {
    expect(parseFormula('y~1+( 1 | plate )').intercept).toBe(true);
    expect(parseFormula('y ~ 0 + x + (1|g)').intercept).toBe(false);
    expect(parseFormula('y ~ x - 1 + (1|g)').intercept).toBe(false);
  });
  it('rejects what it cannot fit, saying where', () => {
    expect(() => parseFormula('y ~ x + (x | g)')).toThrow(/only random intercepts/);
    expect(() => parseFormula('y ~ log(x)')).toThrow(/position/);
    expect(() => parseFormula('~ x')).toThrow(/response ~ terms/);
    expect(() => parseFormula('y ~ x + 2')).toThrow(/only 0 and 1/);
  });
});
