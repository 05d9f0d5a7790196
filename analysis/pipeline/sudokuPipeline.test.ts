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

  it('writes Sudoku trajectories labelled by the technique ladder, one strategy row per attempt, and the Strategy section (issue 37)', () => {
    const rows = csv(out, 'trajectories.csv');
    const attempts = csv(out, 'attempts.csv');
    expect(rows.length).toBeGreaterThan(attempts.length);
    expect(rows.every((r) => r.kind === 'sudoku' && r.stroke === '')).toBe(true);
    const ladder = ['naked-single', 'hidden-single', 'pointing', 'claiming', 'naked-pair', 'hidden-pair', 'naked-triple', 'hidden-triple', 'x-wing', 'swordfish', 'xy-wing', 'guess', ''];
    expect(rows.every((r) => ladder.includes(r.reasoning))).toBe(true);
    expect(rows.some((r) => r.reasoning === 'naked-single')).toBe(true);
    // a change back to no digit has no label; every other change has one
    expect(rows.every((r) => (r.after === 'unknown') === (r.reasoning === ''))).toBe(true);
    // errors: the trajectory's and the attempt rows' agree, attempt by attempt
    const errors = new Map<string, number>();
    for (const r of rows) if (r.error === 'true') errors.set(`${r.participant_id}/${r.position}`, (errors.get(`${r.participant_id}/${r.position}`) ?? 0) + 1);
    for (const a of attempts) expect(errors.get(`${a.participant_id}/${a.position}`) ?? 0, `${a.participant_id}/${a.position}`).toBe(Number(a.errors));
    const strategy = csv(out, 'strategy.csv');
    expect(strategy.map((s) => `${s.participant_id}/${s.puzzle_id}/${s.position}`)).toEqual(attempts.map((a) => `${a.participant_id}/${a.puzzle_id}/${a.position}`));
    expect(header(out, 'strategy.csv')).toEqual(expect.arrayContaining(['naked_single', 'share_hidden_single', 'share_singles', 'time_guess_s', 'first_on_foothold', 'line_order']));
    expect(header(out, 'strategy.csv')).not.toContain('overlap');
    // attempts.csv carries the same strategy columns (a Sudoku's ladder), value for value
    expect(header(out, 'attempts.csv')).toEqual(expect.arrayContaining(['naked_single', 'share_singles', 'backtracks', 'line_order']));
    expect(header(out, 'attempts.csv')).not.toContain('overlap');
    attempts.forEach((a, k) => {
      for (const c of ['share_singles', 'share_guess', 'backtracks', 'mean_rung', 'first_on_foothold', 'line_order']) expect(a[c], c).toBe(strategy[k][c]);
    });
    const corr = csv(out, 'strategy_correlations.csv');
    expect(corr.some((r) => r.table === 'strategy_metric' && r.x === 'minimal_conflicts' && r.y === 'share_guess' && r.n === '6' && r.p_exact !== '')).toBe(true);
    expect(corr.some((r) => r.table === 'strategy_expertise')).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="strategy">Strategy</h2>');
    expect(html).toContain('id="fig-strategy-boards-sudoku"');
    // three attempts drawn per puzzle: fastest, median, slowest
    const picks = html.slice(html.indexOf('id="strategy-picks"'), html.indexOf('</table>', html.indexOf('id="strategy-picks"')));
    for (const w of ['fastest', 'median', 'slowest']) expect(picks.split(`<td>${w}</td>`).length - 1).toBe(6);
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

  it("labels each kind's trajectory by its own ladder, and measures strategy within each kind", () => {
    const rows = csv(out, 'trajectories.csv');
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['nonogram', 'sudoku']));
    const nonogram = new Set(['overlap', 'line', 'two-lines', 'probing', 'guess', '']);
    expect(rows.filter((r) => r.kind === 'nonogram').every((r) => nonogram.has(r.reasoning))).toBe(true);
    expect(rows.filter((r) => r.kind === 'sudoku').every((r) => !nonogram.has(r.reasoning) || r.reasoning === 'guess' || r.reasoning === '')).toBe(true);
    const strategy = csv(out, 'strategy.csv');
    expect(strategy).toHaveLength(16 * 6);
    expect(strategy.filter((s) => s.kind === 'nonogram').every((s) => s.overlap !== '' && s.naked_single === '')).toBe(true);
    expect(strategy.filter((s) => s.kind === 'sudoku').every((s) => s.naked_single !== '' && s.overlap === '')).toBe(true);
    const corr = csv(out, 'strategy_correlations.csv');
    expect(corr.filter((r) => r.kind === 'nonogram' && r.table === 'strategy_metric').every((r) => !r.x.startsWith('minimal_'))).toBe(true);
    expect(corr.some((r) => r.kind === 'sudoku' && r.x === 'minimal_conflicts')).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('id="fig-strategy-boards-nonogram"');
    expect(html).toContain('id="fig-strategy-boards-sudoku"');
  });
});
