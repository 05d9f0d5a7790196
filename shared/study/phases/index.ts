// Every phase kind's server-side rules, by kind.
import type { PhaseKind } from '../../schema/config.ts';
import type { PhaseRules } from './types.ts';
import { consentRules } from './consent.ts';
import { tutorialRules } from './tutorial.ts';
import { warmupRules } from './warmup.ts';
import { surveyRules } from './survey.ts';
import { puzzlesRules } from './puzzles.ts';
import { postSurveyRules } from './postSurvey.ts';
import { completeRules } from './complete.ts';

export type { EndContext, PhaseRules, StepFacts } from './types.ts';
export { CLOCK_TOLERANCE_MS } from './types.ts';

export const phaseRules: { [K in PhaseKind]: PhaseRules<K> } = {
  consent: consentRules,
  tutorial: tutorialRules,
  warmup: warmupRules,
  survey: surveyRules,
  puzzles: puzzlesRules,
  post_survey: postSurveyRules,
  complete: completeRules,
};
