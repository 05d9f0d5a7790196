// End to end: bots -> NDJSON (and through the real server) -> analyze -> every file, rendered figures, the planted effect recovered.
import { describe, expect, it, beforeAll, afterAll, vi } from 'vitest';
import { readFileSync, readdirSync, existsSync, appendFileSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { nonogramsOnly } from '../../shared/schema/config.ts';
import { simulateToDir, simulateToServer, simulateSessions } from '../simulate/index.ts';
import { runAnalysis, renderReport, parseCsv, toCsv, loadPuzzleSet, sessionFiles, extractContext, extractFiles, extractFilesInline, startGmmWorker, fitGmmsInline, analyzeExtracted, gapRowKeys } from './index.ts';
import { distinctLogGaps } from '../stats/index.ts';
import { STRATEGY_COLUMNS, TRAJECTORY_COLUMNS } from '../../shared/signals/index.ts';
import { startTestServer } from '../../tests/support/testServer.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const configPath = join(import.meta.dirname, 'fixtures', 'study.json');
const study = loadStudyConfig(configPath);

describe('simulate -> analyze on a 24-participant study', () => {
  const dir = tempDir('nonolab-pipe-');
  const logs = join(dir, 'logs');
  const out = join(dir, 'out');
  let summary: Awaited<ReturnType<typeof runAnalysis>>['summary'];
  let result: Awaited<ReturnType<typeof runAnalysis>>['result'];

  beforeAll(async () => {
    simulateToDir({ participants: 24, seed: 2026, study }, logs);
    ({ summary, result } = await runAnalysis({ logs, puzzles: configPath, out, pauseThreshold: 'auto' }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every file, with one attempt row per participant and puzzle', () => {
    for (const f of ['attempts.csv', 'participants.csv', 'puzzles.csv', 'gaps.csv', 'pauses.json', 'correlations.csv', 'lmm.csv', 'themes.csv', 'report.html'])
      expect(existsSync(join(out, f)), f).toBe(true);
    const attempts = parseCsv(readFileSync(join(out, 'attempts.csv'), 'utf8'), 'attempts.csv');
    expect(attempts).toHaveLength(72);
    expect(new Set(attempts.map((a) => `${a.participant_id}/${a.puzzle_id}`)).size).toBe(72);
    expect(attempts.every((a) => a.position !== '' && ['1', '2', '3'].includes(a.position))).toBe(true);
    expect(attempts.every((a) => a.sat_conflicts !== '' && a.expertise !== '')).toBe(true);
    const participants = parseCsv(readFileSync(join(out, 'participants.csv'), 'utf8'), 'participants.csv');
    expect(participants).toHaveLength(24);
    const puzzles = parseCsv(readFileSync(join(out, 'puzzles.csv'), 'utf8'), 'puzzles.csv');
    expect(puzzles.map((p) => p.bt_rank).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    // balanced assignment: 12 attempts per puzzle
    expect(puzzles.map((p) => Number(p.attempts))).toEqual([12, 12, 12, 12, 12, 12]);
    expect(summary.sessions).toEqual({ total: 24, analysed: 24, excluded_marked: 0, incomplete: 0 });
  });

  it('fits the pause mixture: three components, BIC for 1..4, a threshold between components 2 and 3', () => {
    const p = JSON.parse(readFileSync(join(out, 'pauses.json'), 'utf8'));
    expect(p.components).toHaveLength(3);
    expect(Object.keys(p.bic)).toEqual(['1', '2', '3', '4']);
    expect(p.delta_bic).toBeGreaterThan(0);
    expect(p.threshold_source).toBe('gmm');
    expect(Math.log(p.threshold_s)).toBeGreaterThan(p.components[1].mean);
    expect(Math.log(p.threshold_s)).toBeLessThan(p.components[2].mean);
    // Cell-level gaps: the bots drag with per-cell times, so component 1 is drag-filling (~0.012 s), as in the paper.
    expect(p.gap_level).toBe('cell');
    expect(p.drag_gaps).toBeGreaterThan(100);
    expect(p.drag_median_s).toBeGreaterThan(0.008);
    expect(p.drag_median_s).toBeLessThan(0.02);
    expect(p.component1_median_s / p.drag_median_s).toBeGreaterThan(1 / 3);
    expect(p.component1_median_s / p.drag_median_s).toBeLessThan(3);
    expect(summary.warnings.some((w) => /drag/.test(w))).toBe(false);
    // The threshold's sensitivity: 3 components (used), 2 components, the paper's 2.36 s, with the pauses each gives.
    expect(p.sensitivity.map((r: { rule: string }) => r.rule)).toEqual(['gmm3', 'gmm2', 'paper']);
    const [g3, , paper] = p.sensitivity;
    expect(g3).toMatchObject({ threshold_s: p.threshold_s, used: true });
    expect(paper.threshold_s).toBe(2.36);
    const gaps = parseCsv(readFileSync(join(out, 'gaps.csv'), 'utf8'), 'gaps.csv');
    for (const r of p.sensitivity) if (r.threshold_s !== null) expect(r.pauses).toBe(gaps.filter((g) => Number(g.gap_s) > r.threshold_s).length);
    const attempts = parseCsv(readFileSync(join(out, 'attempts.csv'), 'utf8'), 'attempts.csv');
    expect(attempts.reduce((s, a) => s + Number(a.pauses), 0)).toBe(g3.pauses);
    // gaps.csv: a gap inside a drag names its cell (> 0)
    expect(gaps.some((g) => g.action === 'stroke' && Number(g.cell) > 0 && Number(g.gap_s) < 0.1)).toBe(true);
  });

  it('states how skips and time-outs enter each analysis; with --skips-hardest and --survival adds both sensitivities', async () => {
    expect(result.outcomes.attempts).toBe(72);
    expect(result.outcomes.solved + result.outcomes.skipped + result.outcomes.timeout + result.outcomes.incomplete).toBe(72);
    expect(result.outcomes.statements.join(' ')).toMatch(/unrated.*drop out.*--skips-hardest/s);
    expect(result.btSkipsHardest).toBeNull();
    expect(result.survival).toBeNull();
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Skips and time-outs</h2>');
    expect(html).toContain('entered as if it were a solve time');
    const o2 = join(dir, 'out-sens');
    const { result: r2 } = await runAnalysis({ logs, puzzles: configPath, out: o2, pauseThreshold: 'auto', skipsHardest: true, survival: true });
    // the skip-hardest Bradley-Terry has one more comparison per (unrated skip, other attempt of the same participant)
    const skips = r2.attempts.filter((a) => a.skipped && a.difficulty === null);
    expect(skips.length).toBe(r2.outcomes.unrated_skips);
    const puzzles = parseCsv(readFileSync(join(o2, 'puzzles.csv'), 'utf8'), 'puzzles.csv');
    expect(puzzles.map((p) => p.bt_skips_rank).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(skips.length).toBe(4); // this seed's bots skip four times
    {
      // a puzzle's score can only go up when its skips count as wins over the participant's other puzzles
      const skipped = new Set(skips.map((a) => a.puzzle_id));
      const gain = (p: Record<string, string>) => Number(p.bt_skips_score) - Number(p.bt_score);
      const gains = puzzles.map((p) => ({ id: p.puzzle_id, g: gain(p) }));
      const top = gains.reduce((a, b) => (b.g > a.g ? b : a));
      expect(skipped.has(top.id)).toBe(true);
    }
    const survival = parseCsv(readFileSync(join(o2, 'survival.csv'), 'utf8'), 'survival.csv');
    expect(survival.map((r) => r.metric)).toEqual(['sat_decisions', 'sat_propagations', 'sat_conflicts']);
    for (const r of survival) {
      expect(Number(r.events)).toBe(r2.outcomes.solved);
      expect(Number(r.censored)).toBe(72 - r2.outcomes.solved);
      expect(Number(r.clusters)).toBe(24);
    }
    // harder puzzles (planted on conflicts) are solved more slowly: hazard ratio of solving below 1
    expect(Number(survival.find((r) => r.metric === 'sat_conflicts')!.hazard_ratio)).toBeLessThan(1);
    const html2 = readFileSync(join(o2, 'report.html'), 'utf8');
    expect(html2).toContain('Solve time as right-censored (Cox, sensitivity)');
    expect(r2.correlations.some((c) => c.table === 'table1_skips_hardest')).toBe(true);
  });

  it('at the action level there are no gaps inside drags, and it warns that component 1 is not drag speed', async () => {
    const { result: actionLevel, summary: s2 } = await runAnalysis({ logs, puzzles: configPath, out: join(dir, 'out-action'), pauseThreshold: 'auto', gapLevel: 'action', report: false });
    expect(actionLevel.pauses.gap_level).toBe('action');
    expect(actionLevel.pauses.drag_gaps).toBe(0);
    expect(actionLevel.gaps.length).toBeLessThan(result.gaps.length);
    expect(actionLevel.pauses.component1_median_s!).toBeGreaterThan(0.05);
    expect(s2.warnings.find((w) => /drag speed/.test(w))).toMatch(/component 1 .*action level/);
  });

  it('recovers the planted effect: harder ratings for high-conflict puzzles, easier for experts', () => {
    const conflicts = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'sat_conflicts')!;
    const expertise = result.lmm.find((r) => r.model === 'table2' && r.metric === 'sat_conflicts' && r.term === 'expertise')!;
    expect(conflicts.estimate).toBeGreaterThan(0);
    expect(expertise.estimate).toBeLessThan(0);
    expect(expertise.ci_high).toBeLessThan(0);
    const bt = result.correlations.find((c) => c.table === 'table1' && c.x === 'sat_conflicts')!;
    expect(bt.rho).toBeGreaterThan(0);
    const t3 = result.correlations.find((c) => c.table === 'table3' && c.y === 'mean_time_s')!;
    expect(t3.rho).toBeLessThan(0);
    expect(result.pca!.explained[0]).toBeGreaterThan(0.4);
    expect(Object.values(result.pca!.loadings).every((l) => l > 0)).toBe(true);
    const lmm = parseCsv(readFileSync(join(out, 'lmm.csv'), 'utf8'), 'lmm.csv');
    expect(lmm.some((r) => r.term === 'sat_conflicts:expertise')).toBe(true);
  });

  it('renders every figure as SVG in a self-contained page', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(summary.figures).toEqual(['conflicts', 'expertise', 'gaps', 'first_actions', 'lmm_difficulty', 'lmm_signals', 'themes']);
    // the seven figures, and the measure comparison's (issue 36) in its own section (the strategy section's boards are HTML tables)
    expect((html.match(/<svg/g) ?? []).length).toBe(8);
    expect(html).toContain('<figure id="fig-measures">');
    expect(html).not.toMatch(/<script|src="http/);
    const themes = parseCsv(readFileSync(join(out, 'themes.csv'), 'utf8'), 'themes.csv');
    const guess = themes.find((t) => t.theme === 'GUESS' && t.level === 'attempt')!;
    expect(Number(guess.r_rb)).toBeGreaterThan(0);
  });

  it('the report: Figure 2 with --candidates, variance components and singular flags, the sign convention, PC1 vs z-mean', async () => {
    // a candidate pool: the six study puzzles among generated ones (as select leaves them)
    const set = loadPuzzleSet(configPath);
    const pool = join(dir, 'candidates.ndjson');
    const extra = Array.from({ length: 20 }, (_, i) => ({ ...set.puzzles[i % 6], id: `cand-${i}`, metrics: { ...set.puzzles[i % 6].metrics, sat: { ...set.puzzles[i % 6].metrics!.sat!, conflicts: 3 * i } } }));
    writeFileSync(pool, [...set.puzzles, ...extra].map((p) => JSON.stringify(p)).join('\n') + '\n');
    const o = join(dir, 'o-report');
    const r = await runAnalysis({ logs, puzzles: configPath, out: o, pauseThreshold: 'auto', candidates: pool });
    expect(r.summary.figures[0]).toBe('figure2');
    expect(r.result.candidates!.values).toHaveLength(26);
    expect(r.result.candidates!.selected.map((x) => x.id)).toEqual(set.puzzles.map((p) => p.id));
    const html = readFileSync(join(o, 'report.html'), 'utf8');
    expect(html).toContain('Figure 2: conflicts over the candidate pool');
    for (const p of set.puzzles) expect(html).toContain(`${p.id} (${p.metrics!.sat!.conflicts})`);
    // variance components and the singular flag beside each model (lmm.csv too)
    expect(html).toContain('Variance components of each model');
    const lmm = parseCsv(readFileSync(join(o, 'lmm.csv'), 'utf8'), 'lmm.csv');
    expect(lmm.every((x) => x.singular === 'true' || x.singular === 'false')).toBe(true);
    // lme4's isSingular: theta = SD(group) / SD(residual) below 1e-4, i.e. a variance ratio below 1e-8
    for (const x of r.result.lmm) expect(x.singular).toBe(x.var_participant < 1e-8 * x.var_residual || x.var_puzzle < 1e-8 * x.var_residual);
    expect(html).toContain('Sign convention of Table 1');
    // PC1 against the z-mean as numbers
    const a = r.result.pca!.agreement!;
    expect(a.n).toBe(24);
    expect(a.pearson_r).toBeGreaterThan(0.9);
    expect(html).toContain(`Pearson r = ${a.pearson_r.toFixed(3)}`);
    // a candidate file without metrics says so and draws no Figure 2
    const bare = join(dir, 'bare.ndjson');
    writeFileSync(bare, set.puzzles.map((p) => JSON.stringify({ ...p, metrics: undefined })).join('\n') + '\n');
    const r2 = await runAnalysis({ logs, puzzles: configPath, out: join(dir, 'o-bare'), pauseThreshold: 'auto', candidates: bare, report: false });
    expect(r2.result.candidates).toBeNull();
    expect(r2.summary.warnings.some((w) => w.includes('no candidate has metrics.sat.conflicts'))).toBe(true);
  });

  it('a method that could not run gives no figure with a NaN legend or an empty axis: the report says why', async () => {
    const broken = { ...result, bt: null, puzzles: result.puzzles.map((p) => ({ ...p, bt_score: null, bt_rank: null })), lmm: [], themes: [], warnings: [...result.warnings, 'LMM difficulty ~ sat_conflicts * expertise + (1|participant) + (1|puzzle): lmm: the response "difficulty" is constant'], participants: result.participants.map((p) => ({ ...p, expertise: null })) };
    const { html, figures, notes } = await renderReport(broken, { title: 't', logs: 'l', puzzles: 'p', generated: 'g' });
    expect(figures).toEqual(['conflicts', 'gaps', 'first_actions']);
    expect(Object.keys(notes).sort()).toEqual(['expertise', 'lmm_difficulty', 'lmm_signals', 'themes']);
    expect(notes.lmm_difficulty).toContain('the response "difficulty" is constant');
    expect(html).toContain('not drawn: no participant has an expertise score');
    expect(html).not.toMatch(/NaN/);
    expect(html).toContain('no Bradley-Terry scores: the model could not run');
  });

  it('leaves pilot sessions out unless asked, and takes a fixed threshold', async () => {
    const file = readdirSync(join(logs, 'sessions'))[0];
    const id = file.replace('.ndjson', '');
    const logs2 = join(dir, 'logs2');
    simulateToDir({ participants: 24, seed: 2026, study }, logs2);
    appendFileSync(join(logs2, 'sessions', file), JSON.stringify({ type: 'session_mark', session_id: id, payload: { mark: 'pilot' }, origin: 'server', t_server: 1, config_hash: study.hash, app_version: '0.1.0' }) + '\n');
    const a = await runAnalysis({ logs: logs2, puzzles: configPath, out: join(dir, 'o2'), pauseThreshold: 3, report: false });
    expect(a.summary.sessions).toMatchObject({ analysed: 23, excluded_marked: 1 });
    expect(a.result.attempts.every((r) => r.pause_threshold_s === 3)).toBe(true);
    const b = await runAnalysis({ logs: logs2, puzzles: configPath, out: join(dir, 'o3'), pauseThreshold: 3, report: false, includePilot: true });
    expect(b.summary.sessions.analysed).toBe(24);
  });

  it("writes trajectories.csv: one tidy row per cell change of the analysed attempts, agreeing with attempts.csv", () => {
    const text = readFileSync(join(out, 'trajectories.csv'), 'utf8');
    expect(text.split('\n', 1)[0]).toBe(TRAJECTORY_COLUMNS.join(','));
    expect(summary.files).toContain('trajectories.csv');
    const rows = parseCsv(text, 'trajectories.csv');
    expect(rows.length).toBeGreaterThan(1000);
    const attempts = parseCsv(readFileSync(join(out, 'attempts.csv'), 'utf8'), 'attempts.csv');
    const byAttempt = new Map<string, Record<string, string>[]>();
    for (const r of rows) {
      expect(['overlap', 'line', 'two-lines', 'probing', 'guess', '']).toContain(r.reasoning);
      expect(r.reasoning === '').toBe(r.after === 'unknown');
      const key = `${r.participant_id}/${r.puzzle_id}/${r.position}`;
      if (!byAttempt.has(key)) byAttempt.set(key, []);
      byAttempt.get(key)!.push(r);
    }
    for (const a of attempts) {
      const mine = byAttempt.get(`${a.participant_id}/${a.puzzle_id}/${a.position}`) ?? [];
      expect(mine.filter((r) => r.error === 'true').length, `${a.participant_id} ${a.puzzle_id}`).toBe(Number(a.errors));
      if (mine.length) expect(mine.at(-1)!.wrong_cells).toBe(a.final_wrong_cells);
      expect(mine.map((r) => Number(r.change))).toEqual(mine.map((_, k) => k + 1));
    }
    expect(byAttempt.size).toBeLessThanOrEqual(attempts.length);
    expect(new Set(rows.map((r) => r.reasoning))).toEqual(new Set(['overlap', 'line', 'two-lines', 'probing', 'guess', '']));
  });

  it('extracts the same rows with worker threads as inline', async () => {
    const set = loadPuzzleSet(configPath);
    const files = sessionFiles(logs);
    const ctx = extractContext(set, false, true);
    const inline = extractFilesInline(files, ctx);
    const threaded = await extractFiles(files, ctx, { parallel: 2, chunkSize: 5 });
    expect(threaded.attempts).toEqual(inline.attempts);
    expect(threaded.participants).toEqual(inline.participants);
    expect(Array.from(threaded.gaps.gap)).toEqual(Array.from(inline.gaps.gap));
    expect(Array.from(threaded.gaps.attempt)).toEqual(Array.from(inline.gaps.attempt));
    expect(Array.from(threaded.gaps.cell)).toEqual(Array.from(inline.gaps.cell));
    expect(threaded.trajectories.join('')).toBe(inline.trajectories.join(''));
    expect(threaded.strategies).toEqual(inline.strategies);
    expect(threaded.marks.map((m) => Array.from(m.cells))).toEqual(inline.marks.map((m) => Array.from(m.cells)));
  });

  it('writes strategy.csv: one row per attempt of attempts.csv, its counts those of the attempt\'s trajectory rows (issue 37)', () => {
    const attempts = parseCsv(readFileSync(join(out, 'attempts.csv'), 'utf8'), 'attempts.csv');
    const text = readFileSync(join(out, 'strategy.csv'), 'utf8');
    expect(text.split('\n', 1)[0]).toBe(STRATEGY_COLUMNS.join(','));
    const strategy = parseCsv(text, 'strategy.csv');
    expect(strategy.map((s) => `${s.participant_id}/${s.puzzle_id}/${s.position}`)).toEqual(attempts.map((a) => `${a.participant_id}/${a.puzzle_id}/${a.position}`));
    const rows = parseCsv(readFileSync(join(out, 'trajectories.csv'), 'utf8'), 'trajectories.csv');
    for (const s of strategy.slice(0, 40)) {
      const mine = rows.filter((r) => r.participant_id === s.participant_id && r.position === s.position);
      expect(Number(s.changes)).toBe(mine.length);
      expect(Number(s.guess)).toBe(mine.filter((r) => r.reasoning === 'guess').length);
      expect(Number(s.backtracks)).toBe(mine.filter((r) => r.backtrack === 'true').length);
      const first = mine.find((r) => r.source !== 'system');
      expect(s.first_row).toBe(first?.row ?? '');
    }
    // attempts.csv ends with the same strategy, value for value: strategy.csv's columns but its keys and first change's cell
    const extra = STRATEGY_COLUMNS.filter((c) => !['participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'first_row', 'first_col'].includes(c));
    const attemptHeader = readFileSync(join(out, 'attempts.csv'), 'utf8').split('\n', 1)[0].split(',');
    expect(attemptHeader.slice(-extra.length)).toEqual(extra);
    expect(attemptHeader).toEqual(expect.arrayContaining(['share_guess', 'backtracks', 'first_on_foothold', 'line_order', 'time_guess_s']));
    attempts.forEach((a, k) => {
      for (const c of extra) expect(a[c], `${a.participant_id}/${a.position} ${c}`).toBe(strategy[k][c]);
    });
    const corr = parseCsv(readFileSync(join(out, 'strategy_correlations.csv'), 'utf8'), 'strategy_correlations.csv');
    expect(corr.filter((r) => r.table === 'strategy_metric' && r.x === 'sat_conflicts').map((r) => r.y)).toEqual(['share_guess', 'share_easy', 'mean_rung', 'backtracks', 'first_on_foothold']);
    expect(corr.filter((r) => r.table === 'strategy_metric').every((r) => r.n === '6' && r.p_exact !== '')).toBe(true);
    expect(corr.filter((r) => r.table === 'strategy_expertise').map((r) => r.y)).toEqual(['mean_share_guess', 'mean_share_easy', 'mean_mean_rung', 'mean_backtracks', 'mean_first_on_foothold']);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="strategy">Strategy</h2>');
    expect(html).toContain('id="fig-strategy-boards-nonogram"');
    expect(html).toContain('fastest, median and slowest attempt by time to solve among its solved attempts');
    // one board per puzzle and pick, each cell of a 10x10 puzzle drawn, numbered 1..k by the order of the first marks
    const boards = [...html.matchAll(/<table class="board"[^>]*>([\s\S]*?)<\/table>/g)];
    expect(boards).toHaveLength(18);
    for (const [, b] of boards) {
      expect(b.match(/<td /g)).toHaveLength(100);
      const numbers = [...b.matchAll(/>(\d+)<\/td>/g)].map((m) => Number(m[1])).sort((x, y) => x - y);
      expect(numbers).toEqual(numbers.map((_, k) => k + 1));
    }
  });

  it('a bad record read on a worker thread stops the run with file, line and field', async () => {
    const set = loadPuzzleSet(configPath);
    const files = sessionFiles(logs);
    const bad = join(dir, 'bad-logs');
    mkdirSync(bad, { recursive: true });
    files.forEach((f) => copyFileSync(f, join(bad, basename(f))));
    const victim = join(bad, basename(files[13]));
    const lines = readFileSync(victim, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"move"') && l.includes('"fill"'));
    lines[k] = lines[k].replace(/"row":\d+/, '"row":-4');
    writeFileSync(victim, lines.join('\n'));
    await expect(extractFiles(sessionFiles(bad), extractContext(set, false, true), { parallel: 2, chunkSize: 5 })).rejects.toThrow(
      new RegExp(`${basename(victim).replace('.', '\\.')}:${k + 1}: client event 'move': .*row`),
    );
  });

  it('with the mixture worker, the analysis overlaps the threshold fit and gives the same result', async () => {
    const set = loadPuzzleSet(configPath);
    const ex = extractFilesInline(sessionFiles(logs), extractContext(set, false, true));
    const inline = await analyzeExtracted(ex, set, { pauseThreshold: 'auto', seed: 3 });
    const w = startGmmWorker();
    try {
      const overlapped = await analyzeExtracted(ex, set, { pauseThreshold: 'auto', seed: 3, fitGmms: w.fit });
      const strip = (r: typeof inline) => ({ ...r, timings: {}, pauses: { ...r.pauses, fit_ms: 0 }, lmm: r.lmm.map((x) => ({ ...x, fit_ms: 0 })) });
      expect(strip(overlapped)).toEqual(strip(inline));
      expect(inline.lmm.some((x) => x.response === 'pauses') && inline.lmm.some((x) => x.response === 'difficulty')).toBe(true);
    } finally {
      w.close();
    }
  });

  it('gaps.csv written by the mixture worker is the same file as written inline', async () => {
    const w = startGmmWorker();
    const file = join(dir, 'gaps-by-worker.csv');
    const temp = join(dir, '.gaps-by-worker.partial');
    try {
      // nothing prepared yet: a clear error, no file
      await expect(w.writeGaps(file)).rejects.toThrow(/not prepared/);
      expect(existsSync(file)).toBe(false);
      w.prepareGaps(temp, gapRowKeys(result.attempts), result.gaps, result.pauses.threshold_s);
      await w.writeGaps(file);
      expect(existsSync(temp)).toBe(false);
    } finally {
      await w.close();
    }
    // prepared but never written (the analysis failed after the threshold): closing removes the temporary file
    const w2 = startGmmWorker();
    w2.prepareGaps(temp, gapRowKeys(result.attempts), result.gaps, result.pauses.threshold_s);
    await vi.waitFor(() => expect(readFileSync(temp).equals(readFileSync(file))).toBe(true), { timeout: 20_000, interval: 20 });
    await w2.close();
    expect(existsSync(temp)).toBe(false);
    const inline = readFileSync(join(out, 'gaps.csv'));
    expect(readFileSync(file).equals(inline)).toBe(true);
    expect(inline.length).toBeGreaterThan(1000);
  });

  it('fits the pause mixtures the same split over a worker thread', async () => {
    const data = distinctLogGaps(result.gaps.gap);
    const w = startGmmWorker();
    try {
      const split = await w.fit(data, [1, 2, 3, 4], 5);
      const inline = await fitGmmsInline(data, [1, 2, 3, 4], 5);
      expect(split).toEqual(inline);
    } finally {
      w.close();
    }
  });

  it('takes an NDJSON puzzle list instead of the config', async () => {
    const list = join(dir, 'puzzles.ndjson');
    writeFileSync(list, nonogramsOnly(study.config.puzzles, 'this test').map((p) => JSON.stringify(p)).join('\n') + '\n');
    const r = await runAnalysis({ logs, puzzles: list, out: join(dir, 'o-list'), pauseThreshold: 'auto', report: false });
    expect(r.result.attempts).toHaveLength(72);
    expect(r.result.participants.every((p) => typeof p.nonogram_skill === 'number')).toBe(true);
    expect(r.result.lmm.find((x) => x.model === 'table2' && x.term === 'sat_conflicts')!.estimate).toBeCloseTo(
      result.lmm.find((x) => x.model === 'table2' && x.term === 'sat_conflicts')!.estimate,
      10,
    );
  });

  it('names the file and line of a bad record', async () => {
    const bad = join(dir, 'bad');
    simulateToDir({ participants: 2, seed: 1, study }, bad);
    const file = readdirSync(join(bad, 'sessions'))[0];
    const path = join(bad, 'sessions', file);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[5] = lines[5].replace(/"seq":\d+/, '"seq":"six"');
    writeFileSync(path, lines.join('\n'));
    await expect(runAnalysis({ logs: bad, puzzles: configPath, out: join(dir, 'o-bad'), pauseThreshold: 'auto', report: false })).rejects.toThrow(`${file}:6: client event`);
  });

  it('a constant metric column: a warning names it and says why its rho is empty', async () => {
    const list = join(dir, 'puzzles-const.ndjson');
    writeFileSync(list, nonogramsOnly(study.config.puzzles, 'this test').map((p) => JSON.stringify({ ...p, metrics: { ...p.metrics, human: { ...p.metrics!.human, line_passes: 3 } } })).join('\n') + '\n');
    const r = await runAnalysis({ logs, puzzles: list, out: join(dir, 'o-const'), pauseThreshold: 'auto', report: false });
    const row = r.result.correlations.find((c) => c.table === 'table1' && c.x === 'human_line_passes')!;
    expect(row.rho).toBeNaN();
    expect(r.summary.warnings).toContain("correlation human_line_passes ~ bt_score (table1): human_line_passes is constant (3 in all 6 rows): Spearman's rho is undefined (no ranking to correlate)");
  });

  it('a robustness table: each solver\'s counters against the human measures (MiniSat alone says how to add one)', async () => {
    expect(result.solvers).toEqual([]);
    expect(summary.warnings.some((w) => w.includes('measure --solvers'))).toBe(true);
    expect(new Set(result.robustness.map((r) => r.x))).toEqual(new Set(['sat_decisions', 'sat_propagations', 'sat_conflicts']));
    // a second solver stored by measure --solvers (here hand-made counters: cadical = 2 x MiniSat's, so the same ranks)
    const list = join(dir, 'puzzles-solvers.ndjson');
    writeFileSync(
      list,
      loadPuzzleSet(configPath)
        .puzzles.map((p) => JSON.stringify({ ...p, metrics: { ...p.metrics, sat_cadical: { decisions: 2 * p.metrics!.sat!.decisions, propagations: 2 * p.metrics!.sat!.propagations, conflicts: 2 * p.metrics!.sat!.conflicts, result: 'SAT' } } }))
        .join('\n') + '\n',
    );
    const o = join(dir, 'o-solvers');
    const r = await runAnalysis({ logs, puzzles: list, out: o, pauseThreshold: 'auto' });
    expect(r.result.solvers).toEqual(['cadical']);
    const rows = parseCsv(readFileSync(join(o, 'robustness.csv'), 'utf8'), 'robustness.csv');
    expect(rows).toHaveLength(2 * 3 * 6); // 2 solvers x 3 counters x 6 human measures
    for (const stat of ['decisions', 'propagations', 'conflicts'])
      for (const y of ['bt_score', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints']) {
        const a = rows.find((x) => x.x === `sat_${stat}` && x.y === y)!, b = rows.find((x) => x.x === `cadical_${stat}` && x.y === y)!;
        expect(b.rho).toBe(a.rho);
        expect(Number(b.n)).toBe(6);
      }
    const html = readFileSync(join(o, 'report.html'), 'utf8');
    expect(html).toContain('<h2>Robustness across solvers</h2>');
    expect(html).toContain('cadical_conflicts');
  });

  it('--no-validate still checks the fields the analysis reads ("row":"x" stops it, naming file, line and field)', async () => {
    const bad = join(dir, 'bad-novalidate');
    simulateToDir({ participants: 2, seed: 1, study }, bad);
    const file = readdirSync(join(bad, 'sessions'))[0];
    const path = join(bad, 'sessions', file);
    const lines = readFileSync(path, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.includes('"type":"move"') && l.includes('"fill"'));
    lines[k] = lines[k].replace(/"row":\d+/, '"row":"x"');
    writeFileSync(path, lines.join('\n'));
    const out = join(dir, 'o-novalidate');
    await expect(runAnalysis({ logs: bad, puzzles: configPath, out, pauseThreshold: 'auto', report: false, validate: false })).rejects.toThrow(
      new RegExp(`${file.replace('.', '\\.')}:${k + 1}: client event 'move': payload\\.move: .*row`),
    );
    expect(existsSync(join(out, 'attempts.csv'))).toBe(false);
    // a rating out of range is a read field too
    lines[k] = lines[k].replace(/"row":"x"/, '"row":1');
    const r = lines.findIndex((l) => l.includes('"type":"rating"') && /"difficulty":\d/.test(l));
    lines[r] = lines[r].replace(/"difficulty":\d/, '"difficulty":9');
    writeFileSync(path, lines.join('\n'));
    await expect(runAnalysis({ logs: bad, puzzles: configPath, out, pauseThreshold: 'auto', report: false, validate: false })).rejects.toThrow(`${file}:${r + 1}: client event 'rating': payload.difficulty`);
  });

  it('--skip-bad-sessions analyses the rest and lists the torn file (summary, warnings, report); without it the run stops', async () => {
    const torn = join(dir, 'torn');
    simulateToDir({ participants: 6, seed: 4, study }, torn);
    const files = readdirSync(join(torn, 'sessions')).sort();
    const victim = join(torn, 'sessions', files[2]);
    const text = readFileSync(victim, 'utf8');
    writeFileSync(victim, text.slice(0, Math.floor(text.length / 2))); // a write cut off mid-record
    await expect(runAnalysis({ logs: torn, puzzles: configPath, out: join(dir, 'o-torn1'), pauseThreshold: 'auto', report: false })).rejects.toThrow(/not valid JSON/);
    const o = join(dir, 'o-torn2');
    const { summary: s3 } = await runAnalysis({ logs: torn, puzzles: configPath, out: o, pauseThreshold: 'auto', skipBadSessions: true, parallel: 1 });
    expect(s3.sessions.total).toBe(5);
    expect(s3.skipped_sessions).toHaveLength(1);
    expect(s3.skipped_sessions[0].file).toBe(victim);
    expect(s3.skipped_sessions[0].error).toMatch(/not valid JSON/);
    expect(s3.warnings.some((w) => w.includes(files[2]) && /skip-bad-sessions/.test(w))).toBe(true);
    const html = readFileSync(join(o, 'report.html'), 'utf8');
    expect(html).toContain('Sessions skipped as unreadable');
    expect(html).toContain(files[2]);
    // the same on worker threads
    const threaded = await extractFiles(sessionFiles(torn), { ...extractContext(loadPuzzleSet(configPath), false, true), skipBadSessions: true }, { parallel: 2, chunkSize: 2 });
    expect(threaded.skipped.map((x) => x.file)).toEqual([victim]);
    expect(threaded.total).toBe(5);
  });

  it('escapes spreadsheet formulae in CSV output', () => {
    const csv = toCsv([{ a: '=cmd|calc', b: 1 }], ['a', 'b']);
    expect(csv.split('\n')[1]).toBe(`"'=cmd|calc",1`);
  });
});

describe('simulate determinism', () => {
  it('gives byte-identical NDJSON for the same seed', () => {
    const one = [...simulateSessions({ participants: 3, seed: 5, study })].map((s) => JSON.stringify(s.records));
    const two = [...simulateSessions({ participants: 3, seed: 5, study })].map((s) => JSON.stringify(s.records));
    expect(one).toEqual(two);
  });
});

describe('simulate through the real server API', () => {
  it('plays bots over HTTP and the server log analyses like the NDJSON writer’s', async () => {
    // Simulated time runs faster than real time: the server must trust the client clock for skips (a config switch).
    const fast = join(tempDir('nonolab-fastclock-'), 'study.json');
    const raw = JSON.parse(readFileSync(configPath, 'utf8'));
    writeFileSync(fast, JSON.stringify({ ...raw, timing: { ...raw.timing, trust_client_clock: true } }));
    const server = await startTestServer({ configPath: fast });
    try {
      await simulateToServer({ participants: 4, seed: 9, study: loadStudyConfig(fast) }, server.url, join(server.dataDir, 'extras'), 2);
      const out = join(server.dataDir, 'out');
      const { summary, result } = await runAnalysis({ logs: server.dataDir, puzzles: configPath, out, pauseThreshold: 2.5, report: false });
      expect(summary.sessions).toMatchObject({ total: 4, analysed: 4 });
      expect(result.attempts).toHaveLength(12);
      const solved = result.attempts.filter((a) => a.solved);
      expect(solved.length).toBeGreaterThan(0);
      // server check records: every solved attempt had a correct check
      expect(solved.every((a) => (a.submissions as number) >= 1)).toBe(true);
      expect(existsSync(join(server.dataDir, 'extras', 'codes.csv'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});


describe("trajectories.csv's writer", () => {
  it('writes the very cells toCsv writes, strings needing quotes or a formula guard, floats, -0, null and booleans included', async () => {
    const { trajectoryCsvBody } = await import('./extract.ts');
    const base = Object.fromEntries(TRAJECTORY_COLUMNS.map((c, k) => [c, k]));
    const rows: Record<string, unknown>[] = [
      { ...base, participant_id: 'p-1', puzzle_id: '=cmd', action: 'fill', reasoning: null, board_right: 1 / 3, correct: true, error: false },
      { ...base, participant_id: 'p-1', puzzle_id: 'a,b', action: 'say "x"', reasoning: 'two-lines', board_right: -0, gap_ms: null, t_ms: 1e21 },
      { ...base, participant_id: ' padded ', puzzle_id: '@x', action: 'fill', reasoning: 'line', board_right: NaN, gap_ms: -12, t_ms: 2 ** 53 + 2, stroke_cell: undefined },
      { ...base, participant_id: 'p-1', puzzle_id: 'line\nbreak', action: '+1', reasoning: 'guess', board_right: 0.1 + 0.2, correct: false, error: true },
    ];
    const viaPapa = toCsv(rows, TRAJECTORY_COLUMNS);
    expect(TRAJECTORY_COLUMNS.join(',') + '\n' + trajectoryCsvBody(rows)).toBe(viaPapa);
    expect(trajectoryCsvBody([])).toBe('');
  });
});
