// The study puzzles: each puzzle step ends solved (by the server's own check), skipped once skipping is allowed, or
// when its time limit runs out; each rating step once a rating was given.
import { CLOCK_TOLERANCE_MS, reasons, type PhaseRules } from './types.ts';

export const puzzlesRules: PhaseRules<'puzzles'> = {
  kind: 'puzzles',
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
