// `nonolab trajectories` end to end: the same bytes analyze writes, filters by session and puzzle, a file or stdout, clear errors.
import { describe, expect, it, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../simulate/index.ts';
import { runAnalysis } from '../pipeline/index.ts';
import { parseCsv } from '../csv.ts';
import { STRATEGY_COLUMNS, TRAJECTORY_COLUMNS } from '../../shared/signals/index.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const root = join(import.meta.dirname, '..', '..');
const config = join(root, 'analysis/pipeline/fixtures/study.json');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), 'trajectories', ...args], { cwd: root, encoding: 'utf8' });
const cliIn = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), 'trajectories', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });

describe('nonolab trajectories', () => {
  const dir = tempDir('nonolab-trajectories-');
  const logs = join(dir, 'logs');
  beforeAll(() => simulateToDir({ participants: 6, seed: 37, study: loadStudyConfig(config) }, logs));

  it("writes to standard output the very bytes of analyze's trajectories.csv (every session analysed)", async () => {
    const r = cli('--logs', logs, '--puzzles', config);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = join(dir, 'out');
    await runAnalysis({ logs, puzzles: config, out, pauseThreshold: 'auto', report: false, parallel: 1 });
    expect(r.stdout).toBe(readFileSync(join(out, 'trajectories.csv'), 'utf8'));
    const rows = parseCsv(r.stdout, 'stdout');
    expect(r.stdout.split('\n', 1)[0]).toBe(TRAJECTORY_COLUMNS.join(','));
    expect(new Set(rows.map((x) => x.participant_id)).size).toBe(6);
    // analyze --no-trajectories: every other file as before, no trajectories.csv (nor the strategy tables made from it)
    const without = join(dir, 'out-without');
    const ran = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), 'analyze', '--logs', logs, '--puzzles', config, '--out', without, '--no-report', '--no-trajectories'], { cwd: root, encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout).files).not.toContain('trajectories.csv');
    expect(readdirSync(without).sort()).toEqual(readdirSync(out).filter((f) => !['trajectories.csv', 'strategy.csv', 'strategy_correlations.csv'].includes(f)).sort());
    for (const f of readdirSync(without)) if (f !== 'pauses.json' && f !== 'attempts.csv') expect(readFileSync(join(without, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));
    // attempts.csv: the same table without the strategy columns it ends with when the trajectories are made
    const full = parseCsv(readFileSync(join(out, 'attempts.csv'), 'utf8'), 'attempts.csv');
    const bare = parseCsv(readFileSync(join(without, 'attempts.csv'), 'utf8'), 'attempts.csv');
    const bareColumns = Object.keys(bare[0]);
    expect(Object.keys(full[0]).slice(0, bareColumns.length)).toEqual(bareColumns);
    expect(bareColumns).not.toContain('share_guess');
    expect(Object.keys(full[0])).toContain('share_guess');
    expect(full.map((r) => Object.fromEntries(bareColumns.map((c) => [c, r[c]])))).toEqual(bare);
  }, 60_000);

  it("a Sudoku study (its config): the same bytes as analyze's trajectories.csv, labelled by the technique ladder", async () => {
    const sudokuConfig = join(root, 'study-config/sudoku.json');
    const sudokuLogs = join(dir, 'sudoku-logs');
    simulateToDir({ participants: 3, seed: 37, study: loadStudyConfig(sudokuConfig) }, sudokuLogs);
    const r = cli('--logs', sudokuLogs, '--puzzles', sudokuConfig);
    expect(r.status, r.stderr).toBe(0);
    const out = join(dir, 'sudoku-out');
    await runAnalysis({ logs: sudokuLogs, puzzles: sudokuConfig, out, pauseThreshold: 'auto', report: false, parallel: 1, compareMeasures: false });
    expect(r.stdout).toBe(readFileSync(join(out, 'trajectories.csv'), 'utf8'));
    const rows = parseCsv(r.stdout, 'stdout');
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((x) => x.kind === 'sudoku')).toBe(true);
    expect(rows.some((x) => x.reasoning === 'naked-single')).toBe(true);
    const summary = cli('--logs', sudokuLogs, '--puzzles', sudokuConfig, '--summary');
    expect(summary.stdout.split('\n', 1)[0]).toBe(readFileSync(join(out, 'strategy.csv'), 'utf8').split('\n', 1)[0]);
  }, 90_000);

  it('keeps one session and one puzzle, into a file', () => {
    const all = parseCsv(cli('--logs', logs, '--puzzles', config).stdout, 'all');
    const session = all[0].participant_id;
    const puzzle = all.find((x) => x.participant_id === session && x.position === '2')!.puzzle_id;
    const file = join(dir, 'one.csv');
    const r = cli('--logs', logs, '--puzzles', config, '--session', session, '--puzzle', puzzle, '--out', file);
    expect(r.status).toBe(0);
    const rows = parseCsv(readFileSync(file, 'utf8'), file);
    expect(rows).toEqual(all.filter((x) => x.participant_id === session && x.puzzle_id === puzzle));
    expect(r.stderr).toBe(`trajectories: ${rows.length} changes of 1 session(s) -> one.csv\n`);
    // the session's own file is read when the logs name files by session; a folder of other names is scanned
    expect(readdirSync(join(logs, 'sessions'))).toContain(`${session}.ndjson`);
    const renamed = join(dir, 'renamed');
    mkdirSync(renamed);
    copyFileSync(join(logs, 'sessions', `${session}.ndjson`), join(renamed, 'a.ndjson'));
    copyFileSync(join(logs, 'sessions', readdirSync(join(logs, 'sessions')).find((f) => f.endsWith('.ndjson') && !f.startsWith(session))!), join(renamed, 'b.ndjson'));
    const scanned = cli('--logs', renamed, '--puzzles', config, '--session', session, '--puzzle', puzzle);
    expect(scanned.status).toBe(0);
    expect(scanned.stdout).toBe(readFileSync(file, 'utf8'));
  });

  it('--summary: one strategy row per attempt with a change, its counts matching the trajectory', () => {
    const all = parseCsv(cli('--logs', logs, '--puzzles', config).stdout, 'all');
    const r = cli('--logs', logs, '--puzzles', config, '--summary');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n', 1)[0]).toBe(STRATEGY_COLUMNS.join(','));
    const summary = parseCsv(r.stdout, 'summary');
    const attempts = new Set(all.map((x) => `${x.participant_id}/${x.attempt}`));
    expect(summary.map((s) => `${s.participant_id}/${s.attempt}`)).toEqual([...attempts]);
    for (const s of summary) {
      const mine = all.filter((x) => x.participant_id === s.participant_id && x.attempt === s.attempt);
      expect(Number(s.changes)).toBe(mine.length);
      expect(Number(s.guess)).toBe(mine.filter((x) => x.reasoning === 'guess').length);
      expect(Number(s.backtracks)).toBe(mine.filter((x) => x.backtrack === 'true').length);
      const levels = ['overlap', 'line', 'two_lines', 'probing', 'guess'].reduce((t, k) => t + Number(s[k]), 0);
      expect(levels).toBe(Number(s.marks));
      const first = mine.find((x) => x.source !== 'system')!;
      expect([s.first_row, s.first_col, s.first_reasoning]).toEqual([first.row, first.col, first.reasoning]);
    }
  });

  it("without --puzzles reads the study the server runs ($NONOLAB_CONFIG, else study-config/study.json), and says so when it is not the logs' study", () => {
    const given = cli('--logs', logs, '--puzzles', config);
    const byDefault = cliIn({ NONOLAB_CONFIG: config }, '--logs', logs);
    expect(byDefault.stderr).toBe('');
    expect(byDefault.status).toBe(0);
    expect(byDefault.stdout).toBe(given.stdout);
    // The default study's puzzles are not the fixture study's: the error names the puzzle and what to give.
    const env = { ...process.env };
    delete env.NONOLAB_CONFIG;
    const other = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'analysis/cli.ts'), 'trajectories', '--logs', logs], { cwd: root, encoding: 'utf8', env });
    expect(other.status).toBe(2);
    expect(other.stderr).toMatch(/^nonolab trajectories: session \S+: puzzle '[^']+' \(position \d\) is not in the puzzle set \(the default study config .*study-config\/study\.json; give --puzzles with the study config or puzzle list these logs' study used\)\n$/);
    expect(other.stdout).toBe(TRAJECTORY_COLUMNS.join(',') + '\n');
    const none = cliIn({ NONOLAB_CONFIG: join(dir, 'no-such.json') }, '--logs', logs);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(`nonolab trajectories: --puzzles: not given, and the default study config ${join(dir, 'no-such.json')} is missing: give the study config or puzzle list the study used\n`);
  });

  it('says what is wrong: an unknown session or puzzle, a bad gap level, a puzzle set without solutions', () => {
    const noSession = cli('--logs', logs, '--puzzles', config, '--session', 'nobody');
    expect(noSession.status).toBe(2);
    expect(noSession.stderr).toBe(`nonolab trajectories: --session nobody: no such session in ${logs}\n`);
    const noPuzzle = cli('--logs', logs, '--puzzles', config, '--puzzle', 'nothing');
    expect(noPuzzle.status).toBe(2);
    expect(noPuzzle.stderr).toBe(`nonolab trajectories: --puzzle nothing: not a puzzle of ${config}\n`);
    const level = cli('--logs', logs, '--puzzles', config, '--gap-level', 'stroke');
    expect(level.status).toBe(2);
    expect(level.stderr).toMatch(/--gap-level: expected 'cell' or 'action', got 'stroke'/);
    const bare = join(dir, 'bare.json');
    writeFileSync(bare, JSON.stringify([{ id: 'bare', rows: [[1]], cols: [[1]] }]));
    const unsolved = cli('--logs', logs, '--puzzles', bare);
    expect(unsolved.status).toBe(2);
    expect(unsolved.stderr).toBe(`nonolab trajectories: ${bare}: puzzle 0 ('bare'): solution is required for trajectories\n`);
    const missing = cli('--puzzles', config);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/--logs <dir>/);
  });
});
