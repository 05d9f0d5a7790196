// The server-side rules of one phase kind: the records its steps may write and when a step of it may end.
import type { Phase, PhaseKind } from '../../schema/config.ts';
import type { ClientEvent, ClientEventType } from '../../schema/event.ts';
import type { Step, StepKind } from '../steps.ts';
import type { Answer } from '../survey.ts';

export type PhaseOf<K extends PhaseKind> = Extract<Phase, { kind: K }>;
export type StepEnd = Extract<ClientEvent, { type: 'step_end' }>;
export type EndReason = StepEnd['payload']['reason'];

/** What the current step has shown the server so far (reset when the step ends). */
export interface StepFacts {
  /** The consent answer given in this step, if any. */
  consent: boolean | null;
  /** Survey answers submitted in this step (already valid for the config), if any. */
  survey: Record<string, Answer> | null;
  /** A rating was given in this step. */
  rated: boolean;
}

export interface EndContext<K extends PhaseKind> {
  phase: PhaseOf<K>;
  step: Step;
  reason: EndReason;
  facts: StepFacts;
  /** The server's check found this step's puzzle solved (at this position). */
  solved: boolean;
  /** Milliseconds the step lasted by the client's wall clock (already bounded by the server's clock). */
  elapsedMs: number;
}

/**
 * One phase kind's rules (the server half of a jsPsych plugin; the client adds the screen in client/src/phases):
 * - `records`: the client event types each of its step kinds may log (besides step_start/step_end, which every step
 *   logs, and the page's visibility/focus/resize records),
 * - `end`: whether a step may end with this reason now; null when it may, else why not (in the participant's terms),
 * - `timed`: the end reasons whose rule depends on elapsed time (the server bounds the client's clock for those).
 */
export interface PhaseRules<K extends PhaseKind> {
  kind: K;
  records: Partial<Record<StepKind, readonly ClientEventType[]>>;
  end(ctx: EndContext<K>): string | null;
  timed: readonly EndReason[];
}

/** The slack given to a client clock rule (timer rounding, a reload): a step may end this early. */
export const CLOCK_TOLERANCE_MS = 1_000;

export function reasons(allowed: readonly EndReason[], reason: EndReason): string | null {
  return allowed.includes(reason) ? null : `a step of this kind ends with ${allowed.map((r) => `'${r}'`).join(' or ')}, not '${reason}'`;
}
