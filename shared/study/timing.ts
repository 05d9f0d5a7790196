// Step clocks: the countdown a capped step shows and when a step may be skipped, asked of its phase kind's module.
import type { Phase } from '../schema/config.ts';
import { moduleOf } from './phases/index.ts';
import type { Step } from './steps.ts';

/** Seconds the step may last before it moves on by itself (warmup cap, puzzle time limit), or null. */
export function stepCapSeconds(phase: Phase | undefined, step: Step | undefined): number | null {
  return phase && step ? moduleOf(phase).capSeconds(phase, step) : null;
}

/** Seconds after the start when skipping becomes possible, or null when the step cannot be skipped. */
export function skipAfterSeconds(phase: Phase | undefined, step: Step | undefined): number | null {
  return phase && step ? moduleOf(phase).skipAfterSeconds(phase, step) : null;
}

/** Whole seconds left on a cap (rounded up, never negative). */
export function secondsLeft(capSeconds: number, elapsedMs: number): number {
  return Math.max(0, Math.ceil(capSeconds - elapsedMs / 1000));
}

/** Whole seconds until Skip is allowed (rounded up), or null once it is, or when the step has no wait. */
export function skipWaitSeconds(skipAfterSeconds: number | null, elapsedMs: number): number | null {
  if (skipAfterSeconds === null || skipAfterSeconds <= 0 || elapsedMs >= skipAfterSeconds * 1000) return null;
  return Math.max(1, Math.ceil(skipAfterSeconds - elapsedMs / 1000));
}

/** "m:ss" for a countdown. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
