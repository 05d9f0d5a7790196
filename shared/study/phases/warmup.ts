// Phase kind 'warmup': a practice board with a time cap; it may end at any time (solved, skipped, done) or when the
// cap runs out (the client moves on by itself; the server refuses checks and hints past the cap plus its grace).
import { WarmupPhase } from '../../schema/phase.ts';
import { practiceBoard } from './simulate.ts';
import { CLOCK_TOLERANCE_MS, reasons, type PhaseModule, type PhaseSimulate } from './types.ts';

export const warmupKind: PhaseModule<'warmup'> = {
  kind: 'warmup',
  params: WarmupPhase,
  expand: (phase) => [{ kind: 'warmup', phase_id: phase.id, puzzle_id: phase.puzzle, position: null }],
  boards: ['warmup'],
  capSeconds: (phase) => phase.cap_seconds,
  skipAfterSeconds: () => 0,
  records: { warmup: ['move', 'submit_result', 'hint_shown'] },
  timed: ['timeout'],
  end({ phase, reason, elapsedMs }) {
    const wrong = reasons(['done', 'solved', 'skipped', 'timeout'], reason);
    if (wrong) return wrong;
    if (reason === 'timeout' && elapsedMs < phase.cap_seconds * 1000 - CLOCK_TOLERANCE_MS) return `the warmup's ${phase.cap_seconds} s are not over`;
    return null;
  },
};

/** Fills and submits the board until it is solved or the cap runs out. */
export const simulateWarmup: PhaseSimulate<'warmup'> = (ctx) => practiceBoard(ctx, warmupKind.capSeconds(ctx.phase, ctx.step), true);
