// Every phase kind's module, by kind, and the questions asked of a step's kind wherever a step is handled.
import type { Phase, PhaseKind } from '../../schema/config.ts';
import type { PhaseModule, StepKind } from './types.ts';
import { consentKind } from './consent.ts';
import { tutorialKind } from './tutorial.ts';
import { warmupKind } from './warmup.ts';
import { surveyKind } from './survey.ts';
import { puzzlesKind } from './puzzles.ts';
import { postSurveyKind } from './postSurvey.ts';
import { completeKind } from './complete.ts';

export type { EndContext, PhaseModule, PhaseOf, PhaseRules, PhaseSimulate, StepFacts, Step, StepKind, SimulateContext } from './types.ts';
export { CLOCK_TOLERANCE_MS } from './types.ts';

export const phaseKinds: { [K in PhaseKind]: PhaseModule<K> } = {
  consent: consentKind,
  tutorial: tutorialKind,
  warmup: warmupKind,
  survey: surveyKind,
  puzzles: puzzlesKind,
  post_survey: postSurveyKind,
  complete: completeKind,
};

/** The server-side rules by kind (progression.ts): the same modules. */
export const phaseRules = phaseKinds;

/** A phase's module, typed by its entry (TypeScript cannot pair a union entry with its module by itself). */
export function moduleOf<P extends Phase>(phase: P): PhaseModule<P['kind']> {
  return phaseKinds[phase.kind] as unknown as PhaseModule<P['kind']>;
}

const BOARD_STEPS: ReadonlySet<string> = new Set(Object.values(phaseKinds).flatMap((m) => m.boards));

/** Does a step of this kind show a puzzle board (and so take moves, checks and hints, and replay as a board)? */
export function showsBoard(stepKind: unknown): stepKind is StepKind {
  return typeof stepKind === 'string' && BOARD_STEPS.has(stepKind);
}
