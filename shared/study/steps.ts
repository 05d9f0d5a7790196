// The study timeline: phases from the config expanded into the steps one participant walks through.
import type { Phase } from '../schema/config.ts';
import { moduleOf } from './phases/index.ts';
import type { Step } from './phases/types.ts';

export type { Step, StepKind } from './phases/types.ts';

/** Expand phases into steps, each by its kind's module (a puzzles phase: puzzle, rating, puzzle, rating, ...). */
export function expandSteps(phases: readonly Phase[], sequence: readonly string[]): Step[] {
  return phases.flatMap((phase) => moduleOf(phase).expand(phase, sequence)).map((draft, index) => ({ index, ...draft }));
}

/** How many puzzles one participant attempts (the length of a sequence). */
export function sequenceLength(phases: readonly Phase[]): number {
  const p = phases.find((ph) => ph.kind === 'puzzles');
  return p && p.kind === 'puzzles' ? p.count : 0;
}
