// Tutorial: a practice board; the participant moves on when they are ready.
import { reasons, type PhaseRules } from './types.ts';

export const tutorialRules: PhaseRules<'tutorial'> = {
  kind: 'tutorial',
  records: { tutorial: ['move', 'submit_result', 'hint_shown'] },
  timed: [],
  end: ({ reason }) => reasons(['done', 'solved'], reason),
};
