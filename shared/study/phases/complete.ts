// Phase kind 'complete': the end; the completion code is asked for (POST /api/session/complete), no step_end is logged.
import { CompletePhase } from '../../schema/phase.ts';
import { noClock, singleStep, type PhaseModule, type PhaseSimulate } from './types.ts';

export const completeKind: PhaseModule<'complete'> = {
  kind: 'complete',
  params: CompletePhase,
  expand: singleStep,
  boards: [],
  capSeconds: noClock,
  skipAfterSeconds: noClock,
  records: { complete: [] },
  timed: [],
  end: () => 'the last step does not end; ask for the completion code',
};

/** Asks for the completion code once everything before was sent. */
export const simulateComplete: PhaseSimulate<'complete'> = ({ page }) => {
  page.wait(300);
  page.calls.push({ type: 'complete', after_seq: page.seq, t_wall: page.wall, last_seq: page.seq });
};
