// Warmup: a practice board with a time cap; it may end at any time (solved, skipped, done) or when the cap runs out.
import { CLOCK_TOLERANCE_MS, reasons, type PhaseRules } from './types.ts';

export const warmupRules: PhaseRules<'warmup'> = {
  kind: 'warmup',
  records: { warmup: ['move', 'submit_result', 'hint_shown'] },
  timed: ['timeout'],
  end({ phase, reason, elapsedMs }) {
    const wrong = reasons(['done', 'solved', 'skipped', 'timeout'], reason);
    if (wrong) return wrong;
    if (reason === 'timeout' && elapsedMs < phase.cap_seconds * 1000 - CLOCK_TOLERANCE_MS) return `the warmup's ${phase.cap_seconds} s are not over`;
    return null;
  },
};
