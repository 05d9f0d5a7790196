import { describe, expect, it } from 'vitest';
import { formatClock, secondsLeft, skipAfterSeconds, stepCapSeconds } from './timing.ts';
import type { Phase } from '../schema/config.ts';
import type { Step } from './steps.ts';

const warmup: Phase = { kind: 'warmup', id: 'w', title: 'W', text: '', puzzle: 'p', cap_seconds: 90 };
const step = (kind: Step['kind']): Step => ({ index: 0, kind, phase_id: 'x', puzzle_id: 'p', position: 1 });

describe('step clocks', () => {
  it('caps warmups and time-limited puzzles, not ratings', () => {
    expect(stepCapSeconds(warmup, step('warmup'))).toBe(90);
    const puzzles: Phase = { kind: 'puzzles', id: 'p', title: 'P', text: '', count: 1, skip_min_seconds: 30, time_limit_seconds: 600, rating: { difficulty_label: 'd', difficulty_labels: ['1', '2', '3', '4', '5'], guessing_label: 'g', guessing_options: ['a', 'b'] } };
    expect(stepCapSeconds(puzzles, step('puzzle'))).toBe(600);
    expect(stepCapSeconds(puzzles, step('rating'))).toBeNull();
    expect(skipAfterSeconds(puzzles, step('puzzle'))).toBe(30);
  });
  it('counts down in whole seconds', () => {
    expect(secondsLeft(90, 0)).toBe(90);
    expect(secondsLeft(90, 500)).toBe(90);
    expect(secondsLeft(90, 89_001)).toBe(1);
    expect(secondsLeft(90, 100_000)).toBe(0);
    expect(formatClock(65)).toBe('1:05');
  });
});
