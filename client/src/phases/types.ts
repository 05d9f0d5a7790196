// The shape of a phase kind on the client: its parameter schema, the events it records, and its screen.
import type { ComponentType } from 'react';
import type { z } from 'zod';
import type { Phase, PhaseKind } from '../../../shared/schema/config.ts';
import type { ClientEventType } from '../../../shared/schema/event.ts';
import type { Step } from '../../../shared/study/steps.ts';

export type PhaseOf<K extends PhaseKind> = Extract<Phase, { kind: K }>;

export interface PhaseScreenProps<K extends PhaseKind> {
  step: Step;
  phase: PhaseOf<K>;
}

/**
 * One phase kind (jsPsych's plugin): a study reorders or drops phases in its config alone, and each kind brings
 * - `params`: the zod schema of its config entry (shared/schema/config.ts),
 * - `records`: the client event types its screen logs (besides step_start/step_end, which every step logs),
 * - `Screen`: the React screen for each of its steps; it calls the controller (study.ts), never the server.
 * A bot's `simulate()` for the same kind lives with the bot (Node side), keyed by `kind`, so that it stays out of
 * the participant bundle.
 */
export interface PhaseModule<K extends PhaseKind> {
  kind: K;
  params: z.ZodType<PhaseOf<K>, unknown>;
  records: readonly ClientEventType[];
  Screen: ComponentType<PhaseScreenProps<K>>;
}

export type PhaseRegistry = { [K in PhaseKind]: PhaseModule<K> };
