// Sudoku bots: they play like people (the technique ladder, pencil marks, wrong digits, hints, skips) and their logs
// replay, through the one Sudoku board model, to the solution whenever the server's check said solved.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudyConfig } from '../../shared/schema/config.ts';
import { ClientEvent } from '../../shared/schema/event.ts';
import type { Move } from '../../shared/schema/move.ts';
import { createRng } from '../../shared/random.ts';
import { botSession, standardiseMetric, DEFAULT_EFFECT, type BotSession } from './bot.ts';
import { replaySudoku, sudokuRows } from '../../shared/sudoku/board.ts';
import { expandSteps } from '../../shared/study/steps.ts';

const config = StudyConfig.parse(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'study-config', 'sudoku.json'), 'utf8')));
const ids = config.puzzles.map((p) => p.id);
const metric = standardiseMetric(Object.fromEntries(ids.map((id, i) => [id, i])));
const effect = { ...DEFAULT_EFFECT, metric };
const sequence = ids.slice(0, 3);
type Sudoku = { id: string; givens: string[]; solution: string[] };
const puzzleOf = (id: string) => [...config.puzzles, ...config.practice_puzzles].find((p) => p.id === id) as unknown as Sudoku;
const run = (seed: number, skill: number, seq: readonly string[] = sequence) => botSession({ config, session_id: 'sbot', sequence: seq, skill, rng: createRng(seed), start_ms: 1_780_000_000_000, effect });
const movesOf = (s: BotSession, step: number): Move[] => s.events.flatMap((e) => (e.type === 'move' && e.step === step ? [e.payload.move] : []));

describe('Sudoku bot participant', () => {
  it('is deterministic and sends schema-valid events with contiguous sequence numbers and non-decreasing clocks', () => {
    expect(JSON.stringify(run(7, 0.3))).toBe(JSON.stringify(run(7, 0.3)));
    const s = run(3, 0);
    s.events.forEach((e, i) => {
      const ok = ClientEvent.safeParse(e);
      expect(ok.success, JSON.stringify(ok.error?.issues)).toBe(true);
      expect(e.seq).toBe(i + 1);
      if (i > 0) expect(e.t_mono).toBeGreaterThanOrEqual(s.events[i - 1].t_mono);
    });
    expect(s.calls.at(-1)).toMatchObject({ type: 'complete', last_seq: s.events.length });
  });

  it('plays with Sudoku moves only, from a device, and its solved boards replay to the solution', () => {
    let solvedBoards = 0;
    for (let seed = 0; seed < 12; seed++) {
      const s = run(seed, seed % 3 - 1);
      const steps = expandSteps(config.phases, sequence);
      for (const st of steps.filter((x) => x.kind === 'puzzle' || x.kind === 'warmup' || x.kind === 'tutorial')) {
        const moves = movesOf(s, st.index);
        expect(moves.every((m) => ['set_digit', 'pencil', 'reveal_digit', 'clear', 'undo', 'reset', 'hint', 'submit', 'skip'].includes(m.type))).toBe(true);
        const sources = new Set(s.events.filter((e) => e.type === 'move' && e.step === st.index && e.payload.move.type !== 'reveal_digit').map((e) => e.source));
        expect(sources.size).toBeLessThanOrEqual(1);
        expect([...sources].every((x) => x === 'mouse' || x === 'touch' || x === 'keyboard')).toBe(true);
        const end = s.events.find((e) => e.type === 'step_end' && e.step === st.index)!;
        const p = puzzleOf(st.puzzle_id!);
        const check = s.calls.filter((c) => c.type === 'check' && c.request.puzzle_id === p.id && c.solved);
        if (end.type === 'step_end' && end.payload.reason === 'solved') {
          solvedBoards++;
          expect(check.length).toBe(1);
          expect(sudokuRows(replaySudoku(p.givens, moves))).toEqual(p.solution);
        }
        if (st.kind === 'tutorial') expect(sudokuRows(replaySudoku(p.givens, moves))).toEqual(p.solution);
      }
    }
    expect(solvedBoards).toBeGreaterThan(30);
  });

  it('uses pencil marks, makes wrong digits and undoes them, and asks hints on boards beyond its reach', () => {
    const all = Array.from({ length: 20 }, (_, seed) => run(seed, 0, ids.slice(3, 6)));
    const moves = all.flatMap((s) => s.events.filter((e) => e.type === 'move' && e.position !== null).map((e) => (e.type === 'move' ? e.payload.move : null)!));
    const count = (t: string) => moves.filter((m) => m.type === t).length;
    expect(count('pencil')).toBeGreaterThan(50);
    expect(count('undo')).toBeGreaterThan(0);
    expect(count('hint')).toBeGreaterThan(0);
    expect(count('reveal_digit')).toBeGreaterThan(0);
    // a wrong digit: a set_digit that differs from the solution
    const wrong = all.flatMap((s) => s.events.filter((e) => e.type === 'move' && e.position !== null && e.payload.move.type === 'set_digit' && puzzleOf(e.puzzle_id!).solution[e.payload.move.row][e.payload.move.col] !== String(e.payload.move.digit)));
    expect(wrong.length).toBeGreaterThan(5);
  });

  it('moves its errors, hints, skips and time with skill', () => {
    const rates = (skill: number) => {
      let errors = 0, hints = 0, skips = 0, time = 0;
      for (let seed = 0; seed < 30; seed++) {
        const s = run(seed, skill, ids.slice(2, 5));
        for (const e of s.events) {
          if (e.type !== 'move' || e.position === null) continue;
          const m = e.payload.move;
          if (m.type === 'set_digit' && puzzleOf(e.puzzle_id!).solution[m.row][m.col] !== String(m.digit)) errors++;
          if (m.type === 'hint') hints++;
          if (m.type === 'skip') skips++;
        }
        const moves = s.events.filter((e) => e.type === 'move' && e.position !== null);
        time += moves[moves.length - 1].t_mono - moves[0].t_mono;
      }
      return { errors, hints, skips, time };
    };
    const weak = rates(-1.5);
    const strong = rates(1.5);
    expect(strong.errors).toBeLessThan(weak.errors);
    expect(strong.hints).toBeLessThan(weak.hints);
    expect(strong.skips).toBeLessThan(weak.skips);
    expect(strong.time).toBeLessThan(weak.time);
  });
});
