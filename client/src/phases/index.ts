// The phase registry: every phase kind the config may name, and the screen for a step.
import { completePhase } from './complete.tsx';
import { consentPhase } from './consent.tsx';
import { postSurveyPhase } from './postSurvey.tsx';
import { puzzlesPhase } from './puzzles.tsx';
import { surveyPhase } from './survey.tsx';
import { tutorialPhase } from './tutorial.tsx';
import { warmupPhase } from './warmup.tsx';
import type { PhaseRegistry } from './types.ts';

export const phaseModules: PhaseRegistry = {
  consent: consentPhase,
  tutorial: tutorialPhase,
  warmup: warmupPhase,
  survey: surveyPhase,
  puzzles: puzzlesPhase,
  post_survey: postSurveyPhase,
  complete: completePhase,
};

export type { PhaseModule, PhaseRegistry, PhaseScreenProps } from './types.ts';
