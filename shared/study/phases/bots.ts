// Every phase kind's bot, by kind: the `simulate<Kind>` each module exports beside its rules (the bot driver in analysis/simulate/ uses them).
import type { Phase, PhaseKind } from '../../schema/config.ts';
import type { PhaseSimulate } from './types.ts';
import { simulateConsent } from './consent.ts';
import { simulateTutorial } from './tutorial.ts';
import { simulateWarmup } from './warmup.ts';
import { simulateSurvey } from './survey.ts';
import { simulatePuzzles } from './puzzles.ts';
import { simulatePostSurvey } from './postSurvey.ts';
import { simulateComplete } from './complete.ts';

export const phaseBots: { [K in PhaseKind]: PhaseSimulate<K> } = {
  consent: simulateConsent,
  tutorial: simulateTutorial,
  warmup: simulateWarmup,
  survey: simulateSurvey,
  puzzles: simulatePuzzles,
  post_survey: simulatePostSurvey,
  complete: simulateComplete,
};

/** A phase's bot, typed by its entry (as moduleOf pairs a phase with its module). */
export function simulatorOf<P extends Phase>(phase: P): PhaseSimulate<P['kind']> {
  return phaseBots[phase.kind] as unknown as PhaseSimulate<P['kind']>;
}
