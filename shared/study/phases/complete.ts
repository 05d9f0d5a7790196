// The end: the completion code is asked for (POST /api/session/complete), no step_end is logged.
import type { PhaseRules } from './types.ts';

export const completeRules: PhaseRules<'complete'> = {
  kind: 'complete',
  records: { complete: [] },
  timed: [],
  end: () => 'the last step does not end; ask for the completion code',
};
