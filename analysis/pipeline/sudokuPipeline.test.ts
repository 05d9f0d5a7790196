// End to end for Sudoku: bots -> NDJSON -> analyze on study-config/sudoku.json (the paper's tables naming the kind's
// metrics) and on study-config/mixed.json (three Nonograms and three Sudokus: every table names the kind, and every
// comparison stays within one).
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../simulate/index.ts';
import { runAnalysis, parseCsv } from './index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..', 'study-config');
const csv = (dir: string, f: string) => parseCsv(readFileSync(join(dir, f), 'utf8'), f);
const header = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8').split('\n')[0].split(',');

describe('simulate -> analyze on a 24-participant Sudoku study', () => {
  const dir = tempDir('nonolab-sudoku-');
  const logs = join(dir, 'logs');
  const out = join(dir, 'out');
  const configPath = join(root, 'sudoku.json');
  let summary: Awaited<ReturnType<typeof runAnalysis>>['summary'];

  beforeAll(async () => {
    simulateToDir({ participants: 24, seed: 35, study: loadStudyConfig(configPath) }, logs);
    ({ summary } = await runAnalysis({ logs, puzzles: configPath, out, pauseThreshold: 'auto' }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the paper's tables, each naming the kind and the Sudoku's metrics (both encodings, both ladders)", () => {
    for (const f of ['attempts.csv', 'participants.csv', 'puzzles.csv', 'gaps.csv', 'pauses.json', 'correlations.csv', 'lmm.csv', 'robustness.csv', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(summary.sessions).toEqual({ total: 24, analysed: 24, excluded_marked: 0, incomplete: 0 });
    const puzzles = csv(out, 'puzzles.csv');
    expect(puzzles.map((p) => p.bt_rank).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(puzzles.every((p) => p.kind === 'sudoku')).toBe(true);
    for (const m of ['minimal_decisions', 'minimal_propagations', 'minimal_conflicts', 'extended_decisions', 'extended_propagations', 'extended_conflicts', 'human_level', 'human_propagation_level'])
      expect(header(out, 'puzzles.csv'), m).toContain(m);
    expect(header(out, 'puzzles.csv')).not.toContain('sat_conflicts');
    const table1 = csv(out, 'correlations.csv').filter((r) => r.table === 'table1');
    expect(table1.map((r) => r.x)).toEqual(expect.arrayContaining(['minimal_conflicts', 'extended_conflicts', 'human_level', 'human_propagation_level']));
    const models = new Set(csv(out, 'lmm.csv').map((r) => `${r.model}:${r.metric}`));
    expect(models).toContain('table2:minimal_conflicts');
    expect(models).toContain('table2:extended_decisions');
    expect(new Set(csv(out, 'robustness.csv').map((r) => r.x))).toEqual(new Set(['minimal_decisions', 'minimal_propagations', 'minimal_conflicts', 'extended_decisions', 'extended_propagations', 'extended_conflicts']));
  });

  it("counts a Sudoku's signals: digits entered, wrong digits, pencil marks, pauses by the mixture rule", () => {
    const attempts = csv(out, 'attempts.csv');
    expect(attempts).toHaveLength(72);
    expect(header(out, 'attempts.csv').slice(0, 3)).toEqual(['participant_id', 'puzzle_id', 'kind']);
    expect(attempts.every((a) => a.kind === 'sudoku' && a.strokes === '0' && Number(a.errors) >= Number(a.error_cells))).toBe(true);
    expect(attempts.reduce((s, a) => s + Number(a.pencil_marks), 0)).toBeGreaterThan(0);
    expect(attempts.reduce((s, a) => s + Number(a.errors), 0)).toBeGreaterThan(0);
    for (const a of attempts.filter((x) => x.outcome === 'solved')) {
      expect(a.final_wrong_cells).toBe('0');
      expect(Number(a.cells_filled)).toBeGreaterThan(0);
    }
    const pauses = JSON.parse(readFileSync(join(out, 'pauses.json'), 'utf8'));
    expect(pauses.threshold_source).toBe('gmm');
    // No drag strokes on a Sudoku: the Nonogram's drag-speed check of component 1 does not apply, and says nothing.
    expect(pauses.drag_gaps).toBe(0);
    expect(summary.warnings.filter((w) => /drag/.test(w))).toEqual([]);
    expect(pauses.components).toHaveLength(3);
    const gaps = readFileSync(join(out, 'gaps.csv'), 'utf8').split('\n');
    expect(gaps[0]).toBe('participant_id,puzzle_id,kind,position,index,cell,action,gap_s,log_gap,pause');
    expect(gaps.some((l) => l.includes(',set_digit,'))).toBe(true);
    expect(gaps.some((l) => l.includes(',pencil,'))).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Puzzle kinds: Sudoku');
    expect(html).toContain('fig-first_actions');
    // the Pauses paragraph speaks of the kind's moves, not of a Nonogram's drag strokes
    expect(html).toContain('no drag strokes (each move of a Sudoku is one point in time)');
    expect(html).not.toContain('drag-filling component');
  });
});

describe('simulate -> analyze on a mixed study (three Nonograms, three Sudokus)', () => {
  const dir = tempDir('nonolab-mixed-');
  const logs = join(dir, 'logs');
  const out = join(dir, 'out');
  const configPath = join(root, 'mixed.json');

  beforeAll(async () => {
    simulateToDir({ participants: 16, seed: 36, study: loadStudyConfig(configPath) }, logs);
    await runAnalysis({ logs, puzzles: configPath, out, pauseThreshold: 'auto' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the kind in every table and compares within a kind', () => {
    const puzzles = csv(out, 'puzzles.csv');
    const byKind = (k: string) => puzzles.filter((p) => p.kind === k);
    // Bradley-Terry within each kind: each kind's three puzzles ranked 1..3 among themselves (ties share a rank)
    for (const k of ['nonogram', 'sudoku']) {
      expect(byKind(k)).toHaveLength(3);
      expect(byKind(k).every((p) => ['1', '2', '3'].includes(p.bt_rank))).toBe(true);
      expect(byKind(k).some((p) => p.bt_rank === '1')).toBe(true);
    }
    expect(byKind('nonogram').every((p) => p.sat_conflicts !== '' && p.minimal_conflicts === '')).toBe(true);
    expect(byKind('sudoku').every((p) => p.minimal_conflicts !== '' && p.sat_conflicts === '')).toBe(true);
    const attempts = csv(out, 'attempts.csv');
    expect(attempts).toHaveLength(16 * 6);
    expect(attempts.filter((a) => a.kind === 'nonogram')).toHaveLength(48);
    for (const f of ['attempts.csv', 'participants.csv', 'puzzles.csv', 'correlations.csv', 'lmm.csv', 'robustness.csv']) expect(header(out, f), f).toContain('kind');
    const participants = csv(out, 'participants.csv');
    expect(participants).toHaveLength(32); // one row per participant and kind
    const corr = csv(out, 'correlations.csv').filter((r) => r.table === 'table1');
    expect(corr.filter((r) => r.kind === 'nonogram').every((r) => r.x.startsWith('sat_') || r.x.startsWith('dfa_') || r.x.startsWith('human_'))).toBe(true);
    expect(corr.filter((r) => r.kind === 'sudoku').some((r) => r.x === 'minimal_conflicts')).toBe(true);
    const pauses = JSON.parse(readFileSync(join(out, 'pauses.json'), 'utf8'));
    expect(Object.keys(pauses.by_kind)).toEqual(['nonogram', 'sudoku']);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Puzzle kinds: Nonogram, Sudoku');
  });
});
