// Phase kind 'tutorial': a practice board without a clock; the participant moves on when they are ready.
import { TutorialPhase } from '../../schema/phase.ts';
import { deliberateGap, practiceBoard } from './simulate.ts';
import { noClock, reasons, type PhaseModule, type PhaseSimulate } from './types.ts';

export const tutorialKind: PhaseModule<'tutorial'> = {
  kind: 'tutorial',
  params: TutorialPhase,
  expand: (phase) => [{ kind: 'tutorial', phase_id: phase.id, puzzle_id: phase.puzzle, position: null }],
  boards: ['tutorial'],
  capSeconds: noClock,
  skipAfterSeconds: noClock,
  records: { tutorial: ['move', 'submit_result', 'hint_shown'] },
  timed: [],
  end: ({ reason }) => reasons(['done', 'solved'], reason),
};

/** Fills the board (no submission), pauses, and goes on. */
export const simulateTutorial: PhaseSimulate<'tutorial'> = (ctx) => practiceBoard(ctx, null, false, () => ctx.page.wait(deliberateGap(ctx.rng)));
