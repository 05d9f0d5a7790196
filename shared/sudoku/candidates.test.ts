// Candidate masks and unit geometry on every box shape.
import { describe, expect, it } from 'vitest';
import { shapeOf } from './grid.ts';
import { MAX_MASK_SIZE, bit, candidatesOf, conflicts, digitsOf, fullMask, geometry, highestDigit, lowestDigit, maskOf, maskText, peerDigits, popcount, sees } from './candidates.ts';
import { gridFromLine } from './testGrid.ts';

describe('masks', () => {
  it('count, list and bound digits up to 31', () => {
    expect(popcount(0)).toBe(0);
    expect(popcount(fullMask(16))).toBe(16);
    expect(popcount(fullMask(31))).toBe(31);
    expect(popcount(0b1011_0000_0000_0001)).toBe(4);
    expect(digitsOf(maskOf([1, 10, 16]))).toEqual([1, 10, 16]);
    expect(lowestDigit(maskOf([5, 12]))).toBe(5);
    expect(highestDigit(maskOf([5, 12]))).toBe(12);
    expect(bit(31)).toBe(2 ** 30);
    expect(maskText(maskOf([1, 9, 10, 16]))).toBe('{1,9,A,G}');
    expect(fullMask(9)).toBe(511);
  });
});

describe('geometry', () => {
  for (const [br, bc] of [[2, 2], [2, 3], [3, 2], [3, 3], [3, 4], [4, 4], [5, 5]] as const) {
    const n = br * bc;
    it(`${n}x${n} with ${br}x${bc} boxes: 3N units of N cells, each cell in one of each kind, peers 3N - boxRows - boxCols - 1`, () => {
      const g = geometry(shapeOf(br, bc));
      expect(g.units).toHaveLength(3 * n);
      for (const u of g.units) expect(new Set(u.cells).size).toBe(n);
      for (let i = 0; i < n * n; i++) {
        const [row, col, box] = g.unitsOf[i];
        expect([row.kind, col.kind, box.kind]).toEqual(['row', 'col', 'box']);
        expect(row.cells).toContain(i);
        expect(col.cells).toContain(i);
        expect(box.cells).toContain(i);
        expect(g.peers[i]).toHaveLength(3 * n - br - bc - 1);
        expect(g.peers[i]).not.toContain(i);
        for (const j of g.peers[i]) expect(sees(g, i, j) && sees(g, j, i)).toBe(true);
      }
      // A box is boxRows tall and boxCols wide.
      const rows = new Set(g.boxes[0].cells.map((i) => Math.floor(i / n)));
      const cols = new Set(g.boxes[0].cells.map((i) => i % n));
      expect([rows.size, cols.size]).toEqual([br, bc]);
      expect(geometry(shapeOf(br, bc))).toBe(g);
    });
  }

  it(`refuses boards past ${MAX_MASK_SIZE} digits`, () => {
    expect(() => geometry(shapeOf(4, 8))).toThrow(/up to 31x31/);
  });
});

describe('candidatesOf, peerDigits, conflicts', () => {
  it('gives an empty cell every digit its row, column and box lack, and a filled cell its digit', () => {
    const g = gridFromLine('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79');
    const c = candidatesOf(g);
    expect(c[0]).toBe(bit(5));
    expect(digitsOf(c[2])).toEqual([1, 2, 4]);
    expect(digitsOf(peerDigits(g, 2))).toEqual([3, 5, 6, 7, 8, 9]);
    expect(digitsOf(c[40])).toEqual([5]);
    expect(conflicts(g)).toEqual([]);
  });

  it('works with letters on 16x16 boards', () => {
    const g = gridFromLine('123456789ABCDEF.' + '.'.repeat(240));
    expect(digitsOf(candidatesOf(g)[15])).toEqual([16]);
    expect(digitsOf(candidatesOf(g)[16])).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it('lists every pair of equal digits in a unit, each unit they share', () => {
    const g = gridFromLine('1..1' + '....' + '....' + '1...');
    expect(conflicts(g)).toEqual([
      { a: 0, b: 3, digit: 1, unit: { kind: 'row', index: 0 } },
      { a: 0, b: 12, digit: 1, unit: { kind: 'col', index: 0 } },
    ]);
    expect(conflicts(gridFromLine('1...' + '.1..' + '....' + '....'))).toEqual([{ a: 0, b: 5, digit: 1, unit: { kind: 'box', index: 0 } }]);
  });
});
