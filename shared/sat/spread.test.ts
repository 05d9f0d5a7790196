// selectSpread: the picks on which two measures disagree most, none tying another of its half on either measure while the pool allows, each on its half's side.
import { describe, expect, it } from 'vitest';
import { selectSpread, type SpreadCandidate } from './spread.ts';

describe('selectSpread', () => {
  it('passes over a candidate that ties an earlier pick on a measure, and takes it only when the pool runs out', () => {
    // a is 0 on five candidates: without the rule the three a-low picks would all be a = 0
    const pool: SpreadCandidate[] = [
      { id: 'z1', a: 0, b: 90 }, { id: 'z2', a: 0, b: 80 }, { id: 'z3', a: 0, b: 70 }, { id: 'z4', a: 0, b: 60 }, { id: 'z5', a: 0, b: 50 },
      { id: 'o1', a: 1, b: 65 }, { id: 'o2', a: 2, b: 55 },
      { id: 'h1', a: 9, b: 1 }, { id: 'h2', a: 8, b: 2 }, { id: 'h3', a: 7, b: 3 }, { id: 'h4', a: 6, b: 4 },
    ];
    const picks = selectSpread(pool);
    // the a-low half: z1, then o1 (z2..z5 tie z1 on a); o2 is ranked higher on a than on b (the other half's side),
    // so distinct values do not buy it a place: the tie z2 fills it, marked
    expect(picks.map((p) => p.id)).toEqual(['h1', 'h2', 'h3', 'z1', 'o1', 'z2']);
    expect(picks.map((p) => p.ties ?? false)).toEqual([false, false, false, false, false, true]);
    for (const p of picks.slice(0, 3)) expect(p.disagreement).toBeGreaterThan(0);
    for (const p of picks.slice(3)) expect(p.disagreement).toBeLessThan(0);
    // a pool of too few distinct values: the passed-over candidates fill the places, each marked
    const flat = selectSpread([...Array(6).keys()].map((i) => ({ id: `c${i}`, a: i < 3 ? 0 : 1, b: i })));
    expect(flat).toHaveLength(6);
    expect(flat.filter((p) => p.ties).length).toBe(2);
    expect(new Set(flat.map((p) => p.id)).size).toBe(6);
  });

  it('refuses a pool smaller than the count', () => {
    expect(() => selectSpread([{ id: 'x', a: 1, b: 2 }])).toThrow(/at least 6 candidates/);
  });
});
