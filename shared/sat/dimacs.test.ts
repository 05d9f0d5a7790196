// DIMACS parsing and writing: round trips and errors that name the line.
import { describe, expect, it } from 'vitest';
import { DimacsError, parseDimacs, writeDimacs } from './dimacs.ts';

describe('parseDimacs', () => {
  it('reads header, comments, multi-line clauses and the % marker', () => {
    const cnf = parseDimacs('c hello\np cnf 4 3\n1 -2 0\n3\n 4 0 -1 0\n%\n0\n');
    expect(cnf).toEqual({ numVars: 4, clauses: [[1, -2], [3, 4], [-1]] });
  });
  it('takes numVars as the larger of the header and the largest index used', () => {
    expect(parseDimacs('p cnf 2 1\n1 5 0\n').numVars).toBe(5);
    expect(parseDimacs('p cnf 9 1\n1 5 0\n').numVars).toBe(9);
  });
  it('names the line of a bad token, a bad header and an unterminated clause', () => {
    expect(() => parseDimacs('p cnf 2 1\n1 x 0\n')).toThrow(/line 2: 'x' is not an integer literal/);
    expect(() => parseDimacs('p dnf 2 1\n')).toThrow(DimacsError);
    expect(() => parseDimacs('p cnf 2 1\n1 2\n')).toThrow(/not terminated/);
  });
  it('round-trips through writeDimacs', () => {
    const cnf = { numVars: 3, clauses: [[1, -2], [3], [-1, 2, -3]] };
    const text = writeDimacs(cnf, ['made by a test']);
    expect(text.startsWith('c made by a test\np cnf 3 3\n1 -2 0\n')).toBe(true);
    expect(parseDimacs(text)).toEqual(cnf);
  });
});
