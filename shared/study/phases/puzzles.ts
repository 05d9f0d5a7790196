// Phase kind 'puzzles': the participant's sequence, each puzzle step followed by its rating step.
//
// A puzzle step ends solved (by the server's own check), skipped once `skip_min_seconds` have passed, or when its
// optional `time_limit_seconds` run out; a rating step once a rating was given. Only the puzzle steps show a board and
// have a clock. The bot's rating carries the planted effect (analysis/simulate/bot.ts): round(3 + b_metric·m +
// b_skill·s + b_interaction·m·s + ε) clamped to 1..5, N/A when the puzzle was not solved.
import { PuzzlesPhase } from '../../schema/phase.ts';
import type { NonogramStudyPuzzle } from '../../schema/config.ts';
import { clamp, logNormal, normal, playBoard, type Tempo } from './simulate.ts';
import type { SudokuTempo } from './sudokuPlay.ts';
import { sudokuPlayOrThrow } from './sudokuBots.ts';
export { registerSudokuPlay } from './sudokuBots.ts';
import { CLOCK_TOLERANCE_MS, reasons, type PhaseModule, type PhaseSimulate, type PhaseOf, type SimulateContext } from './types.ts';

export const puzzlesKind: PhaseModule<'puzzles'> = {
  kind: 'puzzles',
  params: PuzzlesPhase,
  expand: (phase, sequence) =>
    sequence.slice(0, phase.count).flatMap((puzzleId, i) => [
      { kind: 'puzzle' as const, phase_id: phase.id, puzzle_id: puzzleId, position: i + 1 },
      { kind: 'rating' as const, phase_id: phase.id, puzzle_id: puzzleId, position: i + 1 },
    ]),
  boards: ['puzzle'],
  capSeconds: (phase, step) => (step.kind === 'puzzle' ? (phase.time_limit_seconds ?? null) : null),
  skipAfterSeconds: (phase, step) => (step.kind === 'puzzle' ? phase.skip_min_seconds : null),
  records: { puzzle: ['move', 'submit_result', 'hint_shown'], rating: ['rating'] },
  timed: ['skipped', 'timeout'],
  end({ phase, step, reason, facts, solved, elapsedMs }) {
    if (step.kind === 'rating') {
      const wrong = reasons(['done'], reason);
      if (wrong) return wrong;
      return facts.rated ? null : 'no rating has been given';
    }
    const wrong = reasons(['solved', 'skipped', 'timeout'], reason);
    if (wrong) return wrong;
    if (reason === 'solved') return solved ? null : "the server's check has not found this puzzle solved";
    if (reason === 'skipped') {
      const min = phase.skip_min_seconds;
      return elapsedMs >= min * 1000 - CLOCK_TOLERANCE_MS ? null : `a puzzle can be skipped after ${min} s`;
    }
    const limit = phase.time_limit_seconds;
    if (limit === undefined) return 'this puzzle has no time limit';
    return elapsedMs >= limit * 1000 - CLOCK_TOLERANCE_MS ? null : `the puzzle's ${limit} s are not over`;
  },
};

export const simulatePuzzles: PhaseSimulate<'puzzles'> = (ctx) => (ctx.step.kind === 'rating' ? simulateRating(ctx) : simulatePuzzle(ctx));

/**
 * Plays the puzzle at a tempo set by its planted metric m and the bot's skill: more pauses, errors and hints on hard
 * puzzles and for weak bots; sometimes skips part-way (after the phase's minimum), more often when weak on hard ones.
 */
function simulatePuzzle(ctx: SimulateContext<PhaseOf<'puzzles'>>): void {
  const { phase, step, page, rng, who, config, memory } = ctx;
  const { skill } = who;
  const policy = config.hints.policy;
  const puzzle = ctx.puzzle(step.puzzle_id!);
  const m = who.effect.metric[puzzle.id] ?? 0;
  const tempo: Tempo = {
    speed: who.speed * Math.exp(0.12 * m),
    pause: clamp(0.14 + 0.05 * m - 0.05 * skill, 0.02, 0.5),
    error: clamp(0.06 + 0.02 * m - 0.03 * skill, 0.005, 0.25),
    hint: policy === 'off' ? 0 : clamp(0.012 + 0.006 * m - 0.008 * skill, 0, 0.08),
    drag: clamp(0.55 + 0.15 * skill, 0.1, 0.95),
    crosses: who.crosses,
  };
  const pSkip = clamp(0.04 + 0.04 * m - 0.04 * skill, 0, 0.4);
  const skipAfterMs = rng.next() < pSkip ? logNormal(rng, 60_000, 0.4) : null;
  const limit = puzzlesKind.capSeconds(phase, step);
  const limits = {
    capMs: limit === null ? null : limit * 1000,
    skipAfterMs,
    skipMinMs: (puzzlesKind.skipAfterSeconds(phase, step) ?? 0) * 1000,
    canSkip: true,
    submit: true,
    hints: tempo.hint > 0,
    policy,
  };
  const sudoku = (puzzle as { kind?: string }).kind === 'sudoku' ? sudokuPlayOrThrow().sudokuOf(puzzle) : null;
  const played = sudoku ? sudokuPlayOrThrow().playSudoku(page, rng, sudoku, sudokuTempo(tempo, m, skill, policy, rng), { ...limits, hints: policy !== 'off' }) : playBoard(page, rng, puzzle as NonogramStudyPuzzle, tempo, limits);
  memory.outcomes[puzzle.id] = { outcome: played.outcome, hints: played.hints, errors: played.mistakes > 0 };
  page.log('step_end', { kind: step.kind, reason: played.outcome === 'done' ? 'done' : played.outcome });
}

/**
 * A Sudoku's tempo from the same planted difficulty m and skill: the Nonogram tempo's speed and pauses, wrong digits
 * a little rarer (a digit is one decision, a Nonogram run several), hints asked when stuck (more often by weak bots),
 * a reach on the technique ladder set by skill, pencil marks by most bots.
 */
function sudokuTempo(tempo: Tempo, m: number, skill: number, policy: string, rng: SimulateContext<unknown>['rng']): SudokuTempo {
  return {
    speed: tempo.speed,
    pause: tempo.pause,
    error: clamp(0.04 + 0.015 * m - 0.02 * skill, 0.004, 0.2),
    hint: policy === 'off' ? 0 : clamp(0.35 + 0.1 * m - 0.15 * skill, 0.02, 0.9),
    reach: sudokuPlayOrThrow().sudokuReach(skill, rng),
    pencil: rng.next() < clamp(0.6 + 0.1 * skill, 0.2, 0.95),
    source: sudokuPlayOrThrow().sudokuSource(rng),
  };
}

/** Rates the puzzle it just played: the planted effect for its difficulty (N/A unless solved), a guessing level. */
function simulateRating(ctx: SimulateContext<PhaseOf<'puzzles'>>): void {
  const { phase, step, page, rng, who, memory } = ctx;
  const { skill, effect } = who;
  const id = step.puzzle_id!;
  const m = effect.metric[id] ?? 0;
  const skipped = memory.outcomes[id]?.outcome !== 'solved';
  const latent = 3 + effect.b_metric * m + effect.b_skill * skill + effect.b_interaction * m * skill + effect.noise * normal(rng);
  const difficulty = skipped ? null : clamp(Math.round(latent), 1, 5);
  memory.ratings[id] = difficulty;
  const g = phase.rating.guessing_options;
  const guessLevel = clamp(Math.round((g.length - 1) * (0.25 + 0.12 * (latent - 3) - 0.1 * skill) + 0.6 * normal(rng)), 0, g.length - 1);
  page.wait(logNormal(rng, 5_000, 0.4));
  page.log('rating', { difficulty, guessing: g[guessLevel] }, 'mouse');
  page.log('step_end', { kind: step.kind, reason: 'done' });
}
