// The study timeline: phases from the config expanded into the steps one participant walks through.
import type { Phase, PhaseKind } from '../schema/config.ts';

export type StepKind = Exclude<PhaseKind, 'puzzles'> | 'puzzle' | 'rating';

export interface Step {
  index: number;
  kind: StepKind;
  phase_id: string;
  puzzle_id: string | null;
  /** 1-based position of a study puzzle in the participant's sequence. */
  position: number | null;
}

/** Expand phases into steps; a puzzles phase becomes puzzle, rating, puzzle, rating, ... over the sequence. */
export function expandSteps(phases: readonly Phase[], sequence: readonly string[]): Step[] {
  const steps: Step[] = [];
  const push = (kind: StepKind, phase_id: string, puzzle_id: string | null = null, position: number | null = null) =>
    steps.push({ index: steps.length, kind, phase_id, puzzle_id, position });
  for (const phase of phases) {
    switch (phase.kind) {
      case 'tutorial':
      case 'warmup':
        push(phase.kind, phase.id, phase.puzzle);
        break;
      case 'puzzles':
        sequence.slice(0, phase.count).forEach((puzzleId, i) => {
          push('puzzle', phase.id, puzzleId, i + 1);
          push('rating', phase.id, puzzleId, i + 1);
        });
        break;
      default:
        push(phase.kind, phase.id);
    }
  }
  return steps;
}

/** How many puzzles one participant attempts (the length of a sequence). */
export function sequenceLength(phases: readonly Phase[]): number {
  const p = phases.find((ph) => ph.kind === 'puzzles');
  return p && p.kind === 'puzzles' ? p.count : 0;
}
