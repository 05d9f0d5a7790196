// The dashboard's replay and attempts.csv count the same pauses and errors for the same session (one set of rules:
// shared/log/rules.ts, and per kind its board's rule file, shared/sudoku/board.ts for a Sudoku).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { simulateSessions } from '../analysis/simulate/index.ts';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { EventLog } from '../store/eventLog.ts';
import { exportAttempts } from '../server/exports.ts';
import { attemptTimeline, longPauses, sudokuTimeline, type PuzzleShape } from '../client/src/dashboard/records.ts';
import { isSudokuPuzzle } from '../shared/schema/config.ts';
import { replaySudoku, sudokuRows, wrongSudokuCells } from '../shared/sudoku/board.ts';
import { elapsedMs } from '../shared/log/rules.ts';
import type { LoggedClientEvent, LoggedEvent } from '../shared/schema/event.ts';
import { strictCsv } from './support/strictCsv.ts';
import { tempDir } from './support/tempDirs.ts';

const THRESHOLD_S = 2.36;

/**
 * A page reload in the middle of the first attempt with a long gap: from that move on, the page's monotonic clock
 * restarted and has run 500 ms by the next action, while the wall clock says the gap was long. The replay used to
 * trust the monotonic clock here (no pause), the analysis the wall clock (a pause): the case the rules must agree on.
 */
function reloadInsideAGap(records: LoggedEvent[]): { at: number; wallGapMs: number } | null {
  const client = records.filter((r): r is LoggedClientEvent => r.origin === 'client');
  for (let i = 1; i < client.length; i++) {
    const [a, b] = [client[i - 1], client[i]];
    if (a.type !== 'move' || b.type !== 'move' || a.step !== b.step || a.source === 'system' || b.source === 'system' || b.position === null) continue;
    // (Whole actions: a timed stroke's gap runs to its first cell, not to its time stamp.)
    if (a.payload.move.type === 'stroke' || b.payload.move.type === 'stroke') continue;
    const wallGap = b.t_wall - a.t_wall;
    if (wallGap < 4_000) continue;
    const shift = wallGap - 500;
    if (client.slice(i).some((r) => r.t_mono - shift < 0)) continue;
    for (const r of client.slice(i)) r.t_mono = Math.round((r.t_mono - shift) * 10) / 10;
    return { at: b.seq, wallGapMs: wallGap };
  }
  return null;
}

describe('replay and attempts.csv', () => {
  it('count the same pauses, pause time and errors for every attempt of the same sessions', async () => {
    const study = loadStudyConfig(join(import.meta.dirname, '..', 'study-config', 'study.json'));
    const dir = tempDir('nonolab-replay-');
    const ids: string[] = [];
    const reloads: { id: string; at: number; wallGapMs: number }[] = [];
    for (const sim of simulateSessions({ participants: 6, seed: 1507, study })) {
      const id = sim.bot.session_id;
      if (reloads.length === 0) {
        const reload = reloadInsideAGap(sim.records);
        if (reload) reloads.push({ id, ...reload });
      }
      writeFileSync(join(dir, `${id}.ndjson`), sim.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      ids.push(id);
    }
    expect(reloads).toHaveLength(1);
    const log = new EventLog(dir);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportAttempts(log, ids, study.config, out, { pauseThresholdS: THRESHOLD_S });
    out.end();
    const { rows } = strictCsv(Buffer.concat(chunks).toString('utf8'), 'attempts.csv');
    expect(rows.length).toBeGreaterThanOrEqual(ids.length * 3);

    const puzzles = new Map(study.config.puzzles.map((p) => [p.id, p as PuzzleShape]));
    let pauses = 0;
    let errors = 0;
    for (const row of rows) {
      const records = log.read(row.participant_id);
      const timeline = attemptTimeline(records, Number(row.step), puzzles.get(row.puzzle_id)!);
      const shown = longPauses(timeline, THRESHOLD_S * 1000);
      const what = `${row.participant_id} ${row.puzzle_id} (step ${row.step}, ${row.outcome})`;
      expect(shown.length, `pauses of ${what}`).toBe(Number(row.pauses));
      expect(Math.round(shown.reduce((s, p) => s + p.duration, 0)) / 1000, `pause time of ${what}`).toBeCloseTo(Number(row.pause_time_s), 3);
      expect(timeline.errors, `errors of ${what}`).toBe(Number(row.errors));
      expect(timeline.frames.filter((f) => f.introduced_error).length).toBeLessThanOrEqual(timeline.errors);
      pauses += shown.length;
      errors += timeline.errors;
    }
    // The sessions exercise both measures (not a comparison of zeros).
    expect(pauses).toBeGreaterThan(5);
    expect(errors).toBeGreaterThan(0);

    // The reload: its gap is a pause in both, at its wall-clock length.
    const { id, at, wallGapMs } = reloads[0];
    const records = log.read(id);
    const move = records.find((r): r is LoggedClientEvent => r.origin === 'client' && r.seq === at)!;
    const before = records.filter((r): r is LoggedClientEvent => r.origin === 'client' && r.type === 'move' && r.step === move.step && r.seq < at && r.source !== 'system').at(-1)!;
    expect(move.t_mono - before.t_mono).toBeCloseTo(500, 0); // the monotonic clock alone says half a second
    expect(elapsedMs(before, move)).toBe(wallGapMs);
    const timeline = attemptTimeline(records, move.step, puzzles.get(move.puzzle_id!)!);
    expect(longPauses(timeline, THRESHOLD_S * 1000).some((p) => Math.abs(p.duration - wallGapMs) < 1)).toBe(true);
    // ... and the replay's time axis runs by the same clock rule: the two moves lie the wall-clock gap apart.
    const frameT = (seq: number) => timeline.frames.find((f) => f.seq === seq)!.t;
    expect(frameT(at) - frameT(before.seq)).toBe(wallGapMs);
  });
});

describe('replay and attempts.csv on a Sudoku study', () => {
  it('count the same pauses, pause time, errors and wrong digits left for every attempt of simulated Sudoku sessions', async () => {
    const study = loadStudyConfig(join(import.meta.dirname, '..', 'study-config', 'sudoku.json'));
    const dir = tempDir('nonolab-replay-sudoku-');
    const ids: string[] = [];
    for (const sim of simulateSessions({ participants: 6, seed: 35, study })) {
      writeFileSync(join(dir, `${sim.bot.session_id}.ndjson`), sim.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      ids.push(sim.bot.session_id);
    }
    const log = new EventLog(dir);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportAttempts(log, ids, study.config, out, { pauseThresholdS: THRESHOLD_S });
    out.end();
    const { rows } = strictCsv(Buffer.concat(chunks).toString('utf8'), 'attempts.csv');
    expect(rows.length).toBeGreaterThanOrEqual(ids.length * 3);

    const puzzles = new Map(study.config.puzzles.filter(isSudokuPuzzle).map((p) => [p.id, p]));
    expect(puzzles.size).toBe(study.config.puzzles.length);
    let pauses = 0;
    let errors = 0;
    let pencils = 0;
    for (const row of rows) {
      expect(row.kind).toBe('sudoku');
      const records = log.read(row.participant_id);
      const puzzle = puzzles.get(row.puzzle_id)!;
      const timeline = sudokuTimeline(records, Number(row.step), puzzle);
      const shown = longPauses(timeline, THRESHOLD_S * 1000);
      const what = `${row.participant_id} ${row.puzzle_id} (step ${row.step}, ${row.outcome})`;
      expect(shown.length, `pauses of ${what}`).toBe(Number(row.pauses));
      expect(Math.round(shown.reduce((s, p) => s + p.duration, 0)) / 1000, `pause time of ${what}`).toBeCloseTo(Number(row.pause_time_s), 3);
      expect(timeline.errors, `errors of ${what}`).toBe(Number(row.errors));
      expect(timeline.frames.filter((f) => f.introduced_error).length, `error moves of ${what}`).toBe(timeline.errors); // one digit a move
      // The replay's last board is the one the page's rule makes of the step's moves (the attempt ends at its last move
      // here: a solve, a skip or a timeout ends the step), with the wrong digits attempts.csv leaves on it.
      const last = timeline.frames.at(-1)!.board;
      const moves = records.flatMap((r) => (r.origin === 'client' && r.type === 'move' && r.step === Number(row.step) ? [r.payload.move] : []));
      const want = replaySudoku(puzzle.givens, moves);
      expect(sudokuRows(last), `board of ${what}`).toEqual(sudokuRows(want));
      expect(Array.from(last.cells.marks), `marks of ${what}`).toEqual(Array.from(want.cells.marks));
      expect(wrongSudokuCells(last, puzzle.solution).length, `wrong digits left in ${what}`).toBe(Number(row.final_wrong_cells));
      pauses += shown.length;
      errors += timeline.errors;
      pencils += Number(row.pencil_marks);
    }
    // The sessions exercise every measure (not a comparison of zeros).
    expect(pauses).toBeGreaterThan(5);
    expect(errors).toBeGreaterThan(0);
    expect(pencils).toBeGreaterThan(0);
  });
});
