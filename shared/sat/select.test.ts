// The paper's selection scheme on hand-checked rankings.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { selectPaper } from './select.ts';

const cands = (values: number[]) => values.map((value, i) => ({ id: `p${String(i).padStart(4, '0')}`, value }));

describe('selectPaper', () => {
  it('takes 2 lowest, 2 nearest the median, 2 highest after dropping the top 5% (N = 1000)', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i * 2); // ranks are indices
    const s = selectPaper(cands(values));
    expect(s.excluded_top).toBe(50);
    expect(s.median).toBe(999);
    expect(s.selected.map((x) => [x.role, x.rank])).toEqual([
      ['lowest', 1],
      ['lowest', 2],
      ['median', 500],
      ['median', 501],
      ['highest', 950],
      ['highest', 949],
    ]);
  });

  it('is independent of input order and breaks ties by id', () => {
    const rng = createRng(3);
    const base = cands(Array.from({ length: 200 }, () => rng.int(40)));
    const shuffled = [...base].reverse();
    expect(selectPaper(shuffled)).toEqual(selectPaper(base));
    const s = selectPaper(base);
    expect(new Set(s.selected.map((x) => x.id)).size).toBe(6);
  });

  it('excludes ceil(5% of N) at the top, exactly for N = 60 (3 dropped)', () => {
    const s = selectPaper(cands(Array.from({ length: 60 }, (_, i) => i)));
    expect(s.excluded_top).toBe(3);
    expect(s.selected.filter((x) => x.role === 'highest').map((x) => x.rank)).toEqual([57, 56]);
  });

  it('with an odd N, the median candidate comes first', () => {
    const s = selectPaper(cands([5, 1, 9, 7, 3, 8, 2]));
    expect(s.median).toBe(5);
    expect(s.selected.filter((x) => x.role === 'median').map((x) => x.value)).toEqual([5, 3]);
  });

  it('refuses fewer than six candidates and duplicate ids', () => {
    expect(() => selectPaper(cands([1, 2, 3]))).toThrow(/six/);
    expect(() => selectPaper([...cands([1, 2, 3, 4, 5, 6]), { id: 'p0000', value: 3 }])).toThrow(/duplicate/);
  });
});
