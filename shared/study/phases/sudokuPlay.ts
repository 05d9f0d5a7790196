// How a bot plays a Sudoku board, the way people do: the easiest technique that applies, at a tempo set by skill.
/*
 * The bot keeps its own position (a HumanState: the digits it believes placed and the candidates it has ruled out)
 * and asks the technique ladder (shared/sudoku/techniques.ts easiestStep) for the easiest step on it, as solvers'
 * guides teach: singles first, then locked candidates, subsets, fish, XY-wing. How far up the ladder a bot sees is
 * its reach, set by skill (a weak bot sees singles only, an expert all eleven techniques); a step above its reach,
 * or no step at all, leaves it stuck: it asks for a hint when hints are on and its tempo says so, else it thinks long
 * and writes the digit of the cell with the fewest candidates (a guess that happens to be right: bots know the
 * answer). Each step costs time: a deliberate move (~1 s) or a thinking pause (~7 s), more often and longer the
 * harder the technique (its rank on the ladder) and the weaker the bot.
 * - A single is written with `set_digit`. Now and then (tempo.error) the bot first writes a wrong digit there (another
 *   candidate of the cell when it has one): it notices at once (undo), a little later (clear, then the right digit),
 *   or only when its submission fails (then it writes the right digits over the wrong ones).
 * - An elimination step is thinking time; a bot that uses pencil marks (tempo.pencil) writes the candidates of the
 *   cells it touches (`pencil`, one toggle per digit, quick taps) and then takes the eliminated ones off.
 * - A hint is asked as the client does (a `hint` move, the server's answer, hint_shown, then a `reveal_digit` from
 *   the system when the hint names a digit); an elimination hint teaches the bot its eliminations.
 * - Skips happen part-way, after the phase's minimum time; the board is submitted once every cell holds a digit.
 * Every move carries the bot's input source (mouse, touch or keyboard, one per board, as a participant's device).
 * What it is not: a model of human error or search; wrong digits are planted, not reasoned.
 */
import type { ClientEvent } from '../../schema/event.ts';
import type { Move } from '../../schema/move.ts';
import type { HintPolicy } from '../../schema/config.ts';
import type { Rng } from '../../random.ts';
import type { SimulatedPage, SudokuBotPuzzle } from './types.ts';
import { applySudokuMove, initialSudoku, marksOf, sudokuRows, wrongSudokuCells, type SudokuState } from '../../sudoku/board.ts';
import { applyStep, easiestStep, stateOf, TECHNIQUES, type HumanState, type Step as TechniqueStep } from '../../sudoku/techniques.ts';
import { digitsOf, popcount } from '../../sudoku/candidates.ts';
import { shapeOf } from '../../sudoku/grid.ts';
import { symbolValue } from '../../sudoku/schema.ts';
import { logNormal, pick, type BoardPlay } from './random.ts';
import { recordHint } from './botHint.ts';

export interface SudokuTempo {
  /** Multiplies every gap (lower = faster). */
  speed: number;
  /** Probability of a thinking pause before a step (grows with the technique's rank). */
  pause: number;
  /** Probability of a wrong digit before a placement. */
  error: number;
  /** Probability of asking for a hint when stuck (study puzzles only). */
  hint: number;
  /** The hardest technique the bot sees (index into TECHNIQUES: 0 naked single … 10 XY-wing). */
  reach: number;
  /** Writes pencil marks for the candidates an elimination step is about. */
  pencil: boolean;
  /** The board's input source (the participant's device). */
  source: Exclude<ClientEvent['source'], 'system'>;
}

export interface SudokuLimits {
  capMs: number | null;
  skipAfterMs: number | null;
  skipMinMs: number;
  canSkip: boolean;
  submit: boolean;
  hints: boolean;
  policy: HintPolicy;
}

/** The puzzle as a Sudoku a bot can play (a record of kind 'sudoku' with its solution), or null for any other kind. */
export function sudokuOf(puzzle: unknown): SudokuBotPuzzle | null {
  const p = puzzle as Partial<SudokuBotPuzzle> & { kind?: string };
  if (p?.kind !== 'sudoku') return null;
  if (!p.solution) throw new Error(`bot: Sudoku '${p.id}' has no solution`);
  return p as SudokuBotPuzzle;
}

/** The input source of a bot's board: keyboard, mouse or touch (a third each). */
export const sudokuSource = (rng: Rng): SudokuTempo['source'] => pick(rng, ['mouse', 'touch', 'keyboard'] as const);

/** The ladder rank a bot of this skill reaches: singles for a weak bot (-2), the whole ladder for an expert (+2). */
export const sudokuReach = (skill: number, rng: Rng): number => Math.max(1, Math.min(TECHNIQUES.length - 1, Math.round(5 + 2.5 * skill + rng.next() * 2 - 1)));

export function playSudoku(w: SimulatedPage, rng: Rng, puzzle: SudokuBotPuzzle, tempo: SudokuTempo, limits: SudokuLimits): BoardPlay {
  const n = puzzle.size;
  const shape = shapeOf(puzzle.box[0], puzzle.box[1]);
  const sol = new Uint8Array(n * n);
  const givens = new Uint8Array(n * n);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      sol[r * n + c] = symbolValue(puzzle.solution[r][c], n);
      givens[r * n + c] = Math.max(0, symbolValue(puzzle.givens[r][c] ?? '.', n, true));
    }
  let board: SudokuState = initialSudoku(puzzle.givens);
  const human: HumanState = stateOf({ ...shape, cells: givens });
  const startMono = w.mono;
  let hints = 0;
  let mistakes = 0;
  const act = (move: Move, gapMs: number, source: ClientEvent['source'] = tempo.source) => {
    w.wait(gapMs);
    w.log('move', { move }, source);
    board = applySudokuMove(board, move);
  };
  const fast = () => logNormal(rng, 300 * tempo.speed, 0.35);
  const deliberate = () => logNormal(rng, 1_200 * tempo.speed, 0.45);
  const thinking = (rank: number) => logNormal(rng, 7_000 * tempo.speed * (1 + 0.25 * rank), 0.55);
  const elapsed = () => w.mono - startMono;
  const timeUp = () => limits.capMs !== null && elapsed() >= limits.capMs;
  const rc = (i: number) => ({ row: Math.floor(i / n), col: i % n });
  const place = (i: number, digit: number) => applyStep(human, { technique: 'naked-single', placed: { r: Math.floor(i / n), c: i % n, digit }, eliminated: [], units: [], cells: [], digits: [digit] });

  const submit = (): boolean => {
    act({ type: 'submit' }, deliberate());
    const rows = sudokuRows(board);
    const wrong = wrongSudokuCells(board, puzzle.solution).length;
    const solved = board.cells.digits.every((d, i) => d === sol[i]);
    w.calls.push({ type: 'check', after_seq: w.seq, t_wall: w.wall, request: { puzzle_id: puzzle.id, position: w.step.position, rows }, solved, wrong_cells: wrong });
    w.wait(120 + rng.int(120));
    w.log('submit_result', { solved });
    return solved;
  };

  const askHint = () => {
    act({ type: 'hint' }, deliberate());
    hints++;
    const rows = sudokuRows(board);
    const found = w.sudokuHint(puzzle, rows, limits.policy);
    if (!recordHint(w, rng, { puzzle_id: puzzle.id, rows }, found, (h) => ({ row: h.row, col: h.col, kind: h.kind, digit: h.digit, reasoning: h.reasoning, explanation: h.explanation }))) return;
    const i = found.row * n + found.col;
    if (found.digit !== null) {
      act({ type: 'reveal_digit', row: found.row, col: found.col, digit: found.digit }, logNormal(rng, 2_500 * tempo.speed, 0.4), 'system');
      if (human.cells[i] === 0) place(i, found.digit);
    } else for (const e of found.eliminated) applyStep(human, { technique: 'pointing', placed: null, eliminated: [e], units: [], cells: [], digits: [] });
  };

  // Pencil marks for the cells an elimination is about: the candidates the bot still sees, then the eliminated ones off.
  const pencilStep = (step: TechniqueStep, before: number) => {
    let gap = before;
    const cells = [...new Set(step.eliminated.map((e) => e.r * n + e.c))];
    for (const i of cells) {
      if (board.cells.digits[i] !== 0) continue;
      const have = marksOf(board, i);
      for (const d of digitsOf(human.cands[i])) {
        if (have.includes(d)) continue;
        act({ type: 'pencil', ...rc(i), digit: d }, gap);
        gap = fast();
      }
    }
    for (const e of step.eliminated) {
      const i = e.r * n + e.c;
      if (board.cells.digits[i] === 0 && marksOf(board, i).includes(e.digit)) {
        act({ type: 'pencil', row: e.r, col: e.c, digit: e.digit }, gap);
        gap = fast();
      }
    }
  };

  // A wrong digit in cell i before the right one; returns true when it stays on the board unnoticed.
  const mistake = (i: number, right: number, before: number): boolean => {
    const others = digitsOf(human.cands[i]).filter((d) => d !== right);
    const wrong = others.length ? pick(rng, others) : ((right + rng.int(n - 1)) % n) + 1;
    act({ type: 'set_digit', ...rc(i), digit: wrong }, before);
    mistakes++;
    const u = rng.next();
    if (u < 0.45) act({ type: 'undo' }, logNormal(rng, 700 * tempo.speed, 0.4));
    else if (u < 0.75) act({ type: 'clear', ...rc(i) }, deliberate());
    else return true;
    return false;
  };

  // After a failed submission: write the right digit over every wrong one.
  const fixAll = () => {
    for (const i of wrongSudokuCells(board, puzzle.solution)) act({ type: 'set_digit', ...rc(i), digit: sol[i] }, deliberate());
  };

  w.wait(logNormal(rng, 4_000 * tempo.speed, 0.5)); // looking the board over before the first action
  let first = true;
  let resetDone = false;
  for (let guard = 0; guard < 4 * n * n + 50; guard++) {
    if (timeUp()) return { outcome: 'timeout', hints, mistakes };
    if (limits.canSkip && limits.skipAfterMs !== null && elapsed() >= Math.max(limits.skipMinMs, limits.skipAfterMs)) {
      act({ type: 'skip' }, deliberate());
      return { outcome: 'skipped', hints, mistakes };
    }
    if (board.cells.digits.every((d) => d !== 0) || human.cells.every((d) => d !== 0)) {
      // Every cell believed filled: fill what the board still lacks (a forgotten cell), then submit.
      for (let i = 0; i < n * n; i++) if (board.cells.digits[i] === 0) act({ type: 'set_digit', ...rc(i), digit: sol[i] }, deliberate());
      if (!limits.submit) {
        fixAll(); // no check to tell it: it looks the board over
        return { outcome: 'done', hints, mistakes };
      }
      if (submit()) return { outcome: 'solved', hints, mistakes };
      fixAll();
      if (submit()) return { outcome: 'solved', hints, mistakes };
      continue;
    }
    const step = easiestStep(human);
    const rank = step ? TECHNIQUES.indexOf(step.technique) : TECHNIQUES.length;
    if (step === null || rank > tempo.reach) {
      // Stuck: a hint, or a long think and the right digit in the most constrained cell.
      if (limits.hints && rng.next() < tempo.hint) {
        w.wait(thinking(rank));
        askHint();
        continue;
      }
      let best = -1;
      for (let i = 0; i < n * n; i++) if (human.cells[i] === 0 && (best < 0 || popcount(human.cands[i]) < popcount(human.cands[best]))) best = i;
      const gap = thinking(rank) * (1.5 + rng.next());
      if (board.cells.digits[best] !== sol[best]) act({ type: 'set_digit', ...rc(best), digit: sol[best] }, gap);
      else w.wait(gap);
      place(best, sol[best]);
      continue;
    }
    const before = first ? 0 : rng.next() < Math.min(0.9, tempo.pause * (1 + 0.4 * rank)) ? thinking(rank) : deliberate();
    first = false;
    if (step.placed) {
      const i = step.placed.r * n + step.placed.c;
      const digit = step.placed.digit;
      let gap = before;
      let unnoticed = false;
      if (board.cells.digits[i] === 0 && rng.next() < tempo.error) {
        unnoticed = mistake(i, digit, before);
        gap = fast();
      }
      if (!unnoticed && board.cells.digits[i] !== digit) act({ type: 'set_digit', row: step.placed.r, col: step.placed.c, digit }, gap);
      else if (gap === before) w.wait(before);
      applyStep(human, step);
    } else {
      if (tempo.pencil) pencilStep(step, before);
      else w.wait(before);
      applyStep(human, step);
    }
    // Now and then a bot clears the board early on, thinks, and takes it back.
    if (!resetDone && rng.next() < 0.003) {
      resetDone = true;
      act({ type: 'reset' }, deliberate());
      act({ type: 'undo' }, logNormal(rng, 1_500 * tempo.speed, 0.4));
    }
  }
  return { outcome: 'timeout', hints, mistakes };
}

/** The whole technique ladder (a bot that sees every technique). */
export const TOP_REACH = TECHNIQUES.length - 1;
