// A Sudoku study on the server: the check and the hint ask the puzzle's kind, the hint's reveal is a move like the
// Nonogram reveal, and the intake refuses moves a Sudoku board does not take (shared/log/rules.ts moveOffBoard).
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, stampOf, startFirstPuzzle, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { expandSteps } from '../shared/study/steps.ts';
import { StudyConfig, isSudokuPuzzle } from '../shared/schema/config.ts';
import { replaySudoku, sudokuRows } from '../shared/sudoku/board.ts';
import type { Move } from '../shared/schema/move.ts';

const configPath = join(import.meta.dirname, '..', 'tests', 'fixtures', 'sudoku-study.json');
const config = StudyConfig.parse(JSON.parse(readFileSync(configPath, 'utf8')));

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function atFirstPuzzle() {
  server = await startTestServer({ configPath });
  const { p, id, seq, first } = await startFirstPuzzle(server, config);
  const puzzle = config.puzzles.find((q) => q.id === first.puzzle_id)!;
  if (!isSudokuPuzzle(puzzle)) throw new Error('the fixture holds Sudokus');
  const logFile = join(server.dataDir, 'sessions', `${id}.ndjson`);
  return { p, id, seq, first, stamp: stampOf, puzzle, logFile };
}

/** The first empty cell of the givens, and a digit that is wrong there. */
function emptyCell(givens: readonly string[], solution: readonly string[], nth = 0): { row: number; col: number; right: number; wrong: number } {
  let k = 0;
  for (let row = 0; row < givens.length; row++)
    for (let col = 0; col < givens.length; col++)
      if (givens[row][col] === '.' && k++ === nth) {
        const right = Number(solution[row][col]);
        return { row, col, right, wrong: right === 9 ? 1 : right + 1 };
      }
  throw new Error('no empty cell');
}

describe('a Sudoku study on the server', () => {
  it('sends the browser the givens and never the solution', async () => {
    server = await startTestServer({ configPath });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const state = (await p.call('GET', '/api/session')).json;
    const sent = state.study.puzzles.find((q: { id: string }) => q.id === config.puzzles[0].id);
    expect(sent).toEqual({ kind: 'sudoku', id: config.puzzles[0].id, size: 9, box: [3, 3], givens: (config.puzzles[0] as { givens: string[] }).givens });
    expect(state.study.sudoku).toEqual({ flag_conflicts: false });
    expect(JSON.stringify(state)).not.toContain(config.puzzles[0].solution![0]);
    expect(s.session_id).toBeTruthy();
  });

  it('checks a board by the kind: the solution is solved, a partial board is not, a wrong digit counts in the record', async () => {
    const { p, puzzle, logFile } = await atFirstPuzzle();
    const { row, col, wrong } = emptyCell(puzzle.givens, puzzle.solution);
    const bad = puzzle.solution.map((r, i) => (i === row ? r.slice(0, col) + wrong + r.slice(col + 1) : r));
    const partial = puzzle.givens;
    for (const [rows, solved] of [[bad, false], [partial, false], [puzzle.solution, true]] as const)
      expect((await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows })).json).toEqual({ solved });
    const checks = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'check');
    expect(checks.map((c) => [c.payload.solved, c.payload.wrong_cells])).toEqual([[false, 1], [false, 0], [true, 0]]);
  });

  it('a hint by the kind: a digit to place (revealed as a reveal_digit move) and a wrong digit first; both recorded', async () => {
    const { p, id, seq, first, stamp, puzzle, logFile } = await atFirstPuzzle();
    const h = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: puzzle.givens })).json.hint;
    expect(h.puzzle).toBe('sudoku');
    expect(h.kind).toBe('cell');
    expect(h.digit).toBe(Number(puzzle.solution[h.row][h.col]));
    expect(h.explanation.length).toBeGreaterThan(10);
    // The page applies the reveal as a move of its own (system), accepted like any other.
    const reveal: Move = { type: 'reveal_digit', row: h.row, col: h.col, digit: h.digit };
    const r = await p.call('POST', '/api/session/events', { events: [event(id, seq + 1, { ...stamp(first), source: 'system', type: 'move', payload: { move: reveal } })] });
    expect(r.json.acked_seq).toBe(seq + 1);
    expect(sudokuRows(replaySudoku(puzzle.givens, [reveal]))[h.row][h.col]).toBe(puzzle.solution[h.row][h.col]);
    // A wrong digit is pointed at first, with the right digit for the fix.
    const { row, col, right, wrong } = emptyCell(puzzle.givens, puzzle.solution, 5);
    const rows = puzzle.givens.map((g, i) => (i === row ? g.slice(0, col) + wrong + g.slice(col + 1) : g));
    const e = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows })).json.hint;
    expect([e.kind, e.row, e.col, e.digit]).toEqual(['error', row, col, right]);
    const hints = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((x) => x.type === 'hint');
    expect(hints.map((x) => [x.payload.row, x.payload.col, x.payload.kind])).toEqual([[h.row, h.col, 'cell'], [row, col, 'error']]);
    // A solved board has no hint.
    expect((await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: puzzle.solution })).json.hint).toBeNull();
  });

  it('refuses moves a Sudoku board does not take (off the board, a digit above 9, a given, a Nonogram paint); the log is unchanged', async () => {
    const { p, id, seq, first, stamp, puzzle, logFile } = await atFirstPuzzle();
    const before = readFileSync(logFile, 'utf8');
    const { row, col } = emptyCell(puzzle.givens, puzzle.solution);
    let gr = 0, gc = 0;
    while (puzzle.givens[gr][gc] === '.') if (++gc === 9) [gr, gc] = [gr + 1, 0];
    const tries: [Move, string][] = [
      [{ type: 'set_digit', row: 9, col: 0, digit: 1 }, `names row 10, column 1, off the 9x9 board of puzzle '${puzzle.id}'`],
      [{ type: 'set_digit', row, col, digit: 10 }, `writes digit 10, above 9, the largest digit of the 9x9 board of puzzle '${puzzle.id}'`],
      [{ type: 'pencil', row, col, digit: 12 }, 'writes digit 12, above 9'],
      [{ type: 'set_digit', row: gr, col: gc, digit: 1 }, `names row ${gr + 1}, column ${gc + 1}, a given of puzzle '${puzzle.id}' (${puzzle.givens[gr][gc]}), which cannot change`],
      [{ type: 'clear', row: gr, col: gc }, 'a given'],
      [{ type: 'fill', row, col }, `is a 'fill' move, but puzzle '${puzzle.id}' is a Sudoku`],
      [{ type: 'stroke', state: 'filled', cells: [[row, col]] }, "is a 'stroke' move"],
    ];
    for (const [move, message] of tries) {
      const r = await p.call('POST', '/api/session/events', { events: [event(id, seq + 1, { ...stamp(first), type: 'move', payload: { move } })] });
      expect(r.status, JSON.stringify(move)).toBe(409);
      expect(r.json.error).toContain(message);
    }
    expect(readFileSync(logFile, 'utf8')).toBe(before);
    // The board's own moves are taken: a digit, a mark, a clear, undo.
    const ok: Move[] = [{ type: 'pencil', row, col, digit: 3 }, { type: 'set_digit', row, col, digit: 9 }, { type: 'clear', row, col }, { type: 'undo' }];
    const r = await p.call('POST', '/api/session/events', { events: ok.map((move, i) => event(id, seq + 1 + i, { ...stamp(first), type: 'move', payload: { move } })) });
    expect(r.json.acked_seq).toBe(seq + ok.length);
  });

  it("a Nonogram board refuses a Sudoku digit (the Nonogram study's own moves are taken as ever)", async () => {
    const { defaultConfig } = await import('../tests/support/server.ts');
    const nonogram = defaultConfig();
    server = await startTestServer();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, nonogram, 4);
    const steps = expandSteps(nonogram.phases, (await p.call('GET', '/api/session')).json.sequence);
    const st = steps[4];
    const at = { step: st.index, phase: st.phase_id, puzzle_id: st.puzzle_id, position: st.position };
    await p.call('POST', '/api/session/events', { events: [event(s.session_id, last + 1, { ...at, type: 'step_start', payload: { kind: 'puzzle' } })] });
    const r = await p.call('POST', '/api/session/events', { events: [event(s.session_id, last + 2, { ...at, type: 'move', payload: { move: { type: 'set_digit', row: 0, col: 0, digit: 1 } } })] });
    expect(r.status).toBe(409);
    expect(r.json.error).toContain(`is a 'set_digit' move, but puzzle '${st.puzzle_id}' is a Nonogram`);
  });
});
