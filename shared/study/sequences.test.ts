import { describe, expect, it } from 'vitest';
import { chooseBalanced, countAttempts, orderedSequences } from './sequences.ts';
import { createRng } from '../random.ts';

const puzzles = ['a', 'b', 'c', 'd', 'e', 'f'];

describe('orderedSequences', () => {
  it('gives 6*5*4 = 120 distinct sequences of three', () => {
    const all = orderedSequences(puzzles, 3);
    expect(all).toHaveLength(120);
    expect(new Set(all.map((s) => s.join())).size).toBe(120);
  });
});

describe('chooseBalanced', () => {
  it('keeps per-puzzle attempt counts within 2 through all 120 sequences, for many seeds', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = createRng(seed);
      const free = orderedSequences(puzzles, 3);
      const taken: string[][] = [];
      while (free.length > 0) {
        const i = chooseBalanced(free, taken, puzzles, rng);
        taken.push(...free.splice(i, 1));
        const counts = [...countAttempts(taken).perPuzzle.values()];
        while (counts.length < 6) counts.push(0);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
      }
      expect(taken).toHaveLength(120);
    }
  });
});

describe('chooseBalanced with abandonments', () => {
  it('keeps the spread within 2 after every assignment when random sessions give their sequence back', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rng = createRng(seed);
      const free = orderedSequences(puzzles, 3);
      const taken: string[][] = [];
      for (let i = 0; i < 200 && free.length > 0; i++) {
        const pick = chooseBalanced(free, taken, puzzles, rng);
        taken.push(...free.splice(pick, 1));
        const counts = puzzles.map((p) => countAttempts(taken).perPuzzle.get(p) ?? 0);
        expect(Math.max(...counts) - Math.min(...counts), `seed ${seed}, assignment ${i}`).toBeLessThanOrEqual(2);
        if (rng.next() < 0.15 && taken.length > 0) free.push(...taken.splice(rng.int(taken.length), 1)); // abandoned before its first puzzle
      }
    }
  });
});
