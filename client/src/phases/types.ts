// The client's part of a phase kind: its screen. Everything else about the kind is in shared/study/phases/<kind>.ts.
import type { ComponentType } from 'react';
import type { PhaseKind } from '../../../shared/schema/config.ts';
import type { PhaseOf } from '../../../shared/study/phases/index.ts';
import type { Step } from '../../../shared/study/steps.ts';

export type { PhaseOf };

export interface PhaseScreenProps<K extends PhaseKind> {
  step: Step;
  phase: PhaseOf<K>;
}

/**
 * One phase kind on the client (jsPsych's plugin, its display half): the React screen for each of its steps; it calls
 * the controller (study.ts), never the server. The kind's config schema, steps, clocks, board, records, end rule and
 * bot (`simulate()`) are its shared module (shared/study/phases/<kind>.ts), which the client, the server and the
 * simulator all read.
 */
export interface PhaseModule<K extends PhaseKind> {
  kind: K;
  Screen: ComponentType<PhaseScreenProps<K>>;
}

export type PhaseRegistry = { [K in PhaseKind]: PhaseModule<K> };
