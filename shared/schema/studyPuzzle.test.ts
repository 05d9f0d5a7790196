// The study config's puzzles of every kind: a Sudoku record is a study puzzle, a Nonogram reads (and hashes) as it
// always did, and what the browser sees of each.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudyConfig, describeIssues, nonogramsOnly, PuzzleKindError } from './config.ts';
import { ClientStudy } from './api.ts';
import { clientStudy, configHash } from '../study/config.ts';
import { sha256Hex } from '../../node/studyConfig.ts';

const root = join(import.meta.dirname, '..', '..');
// The default study as it was before it declared languages (a config without `languages` hashes as it always did).
const { languages: _languages, ...base } = JSON.parse(readFileSync(join(root, 'study-config', 'study.json'), 'utf8'));
// `./nonolab generate --kind sudoku --size 9x9 --count 4 --seed 35`, the second record
const SUDOKU = {
  kind: 'sudoku',
  id: 's9x9-b68f2042ac7e',
  size: 9,
  box: [3, 3],
  givens: ['2......8.', '....6....', '175..3..2', '.....8.1.', '49.5..2..', '3..1.....', '.........', '...91..7.', '..9.8.651'],
  solution: ['246759183', '983261547', '175843962', '627398415', '491576238', '358124796', '514637829', '862915374', '739482651'],
};
const withSudoku = (extra: object = {}) => ({ ...base, puzzles: [...base.puzzles, { ...SUDOKU, ...extra }] });
const issues = (cfg: unknown) => {
  const r = StudyConfig.safeParse(cfg);
  return r.success ? '' : describeIssues(r.error.issues);
};

describe('study puzzles of every kind', () => {
  it('a Nonogram config parses and hashes exactly as before Sudoku existed', () => {
    const cfg = StudyConfig.parse(base);
    expect(configHash(cfg, sha256Hex)).toBe('97dddd32fab21d80');
    expect('sudoku' in cfg).toBe(false);
    const { languages: _simLanguages, ...simulation } = JSON.parse(readFileSync(join(root, 'study-config', 'simulation.json'), 'utf8'));
    expect(configHash(StudyConfig.parse(simulation), sha256Hex)).toBe('16d02338c7493db3');
  });

  it('takes a Sudoku record among the puzzles and practice puzzles', () => {
    const cfg = StudyConfig.parse({ ...withSudoku(), practice_puzzles: [...base.practice_puzzles, { ...SUDOKU, id: 'practice-sudoku' }] });
    expect(cfg.puzzles.at(-1)).toEqual(SUDOKU);
    expect(cfg.practice_puzzles.at(-1)?.kind).toBe('sudoku');
  });

  it('checks a Sudoku record as the Sudoku schema does, naming the field', () => {
    const i = base.puzzles.length;
    expect(issues(withSudoku({ givens: ['26.....8.', ...SUDOKU.givens.slice(1)] }))).toBe(`puzzles.${i}.givens.0: r1c2 is given as 6 but the solution has 4`);
    expect(issues(withSudoku({ box: [2, 3] }))).toBe(`puzzles.${i}.box: a box of 2x3 has 6 cells, the side is 9`);
    expect(issues(withSudoku({ solution: undefined }))).toContain(`puzzles.${i}.solution`);
  });

  it('refuses an unknown key on a Sudoku with the nearest known one, and an unknown kind with the kinds', () => {
    const i = base.puzzles.length;
    expect(issues(withSudoku({ givnes: [] }))).toBe(`puzzles.${i}: unknown key givnes; did you mean givens?`);
    expect(issues({ ...base, puzzles: [...base.puzzles, { ...SUDOKU, kind: 'kakuro' }] })).toBe(`puzzles.${i}.kind: unknown puzzle kind "kakuro" (kinds: nonogram, sudoku)`);
  });

  it('sudoku.flag_conflicts: optional, a boolean, strict', () => {
    expect(StudyConfig.parse({ ...base, sudoku: {} }).sudoku).toEqual({ flag_conflicts: false });
    expect(StudyConfig.parse({ ...base, sudoku: { flag_conflicts: true } }).sudoku).toEqual({ flag_conflicts: true });
    expect(issues({ ...base, sudoku: { flag_conflict: true } })).toBe('sudoku: unknown key flag_conflict; did you mean flag_conflicts?');
    expect(issues({ ...base, sudoku: { flag_conflicts: 'yes' } })).toContain('sudoku.flag_conflicts');
  });

  it('the browser gets a Sudoku by its givens (no solution) and the setting; a Nonogram study gets what it always got', () => {
    const plain = clientStudy(StudyConfig.parse(base), 'h');
    expect('sudoku' in plain).toBe(false);
    expect(Object.keys(plain.puzzles[0]).sort()).toEqual(['cols', 'height', 'id', 'rows', 'width']);
    const mixed = clientStudy(StudyConfig.parse({ ...withSudoku(), sudoku: { flag_conflicts: true } }), 'h');
    expect(mixed.puzzles.find((p) => p.id === SUDOKU.id)).toEqual({ kind: 'sudoku', id: SUDOKU.id, size: 9, box: [3, 3], givens: SUDOKU.givens });
    expect(mixed.sudoku).toEqual({ flag_conflicts: true });
    expect(ClientStudy.parse(mixed)).toEqual(mixed);
    expect(JSON.stringify(mixed)).not.toContain(SUDOKU.solution[0]);
  });

  it('nonogramsOnly names the first puzzle of another kind', () => {
    const cfg = StudyConfig.parse(withSudoku());
    expect(() => nonogramsOnly(cfg.puzzles, 'simulate')).toThrow(PuzzleKindError);
    expect(() => nonogramsOnly(cfg.puzzles, 'simulate')).toThrow(`simulate takes Nonogram puzzles only: puzzle '${SUDOKU.id}' is a sudoku`);
  });
});
