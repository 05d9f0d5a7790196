// metricOf: one naming scheme for puzzle metrics, the old spellings as aliases, a clear error for anything else.
import { describe, expect, it } from 'vitest';
import type { Puzzle } from '../shared/schema/puzzle.ts';
import { metricOf, metricValueOf, MetricNameError } from './metric.ts';

const p = {
  id: 'x', width: 1, height: 1, rows: [[]], cols: [[]],
  metrics: { sat: { conflicts: 7, decisions: 1, propagations: 2, restarts: 1 }, sat_dfa: { conflicts: 9, decisions: 3, propagations: 4, restarts: 0 }, human: { level: 2, unique: true }, sat_cadical: { conflicts: 11, decisions: 5, propagations: 6 } },
} as unknown as Puzzle;

describe('metricOf', () => {
  it('names a metric <source>_<key> and reads it where it is stored', () => {
    expect(metricOf('sat_conflicts')).toEqual({ name: 'sat_conflicts', path: ['sat', 'conflicts'], field: 'metrics.sat.conflicts' });
    expect(metricOf('dfa_conflicts').field).toBe('metrics.sat_dfa.conflicts');
    expect(metricOf('human_line_passes').field).toBe('metrics.human.line_passes');
    expect(metricOf('cadical_conflicts').field).toBe('metrics.sat_cadical.conflicts');
    expect(metricValueOf(p, metricOf('sat_conflicts'))).toBe(7);
    expect(metricValueOf(p, metricOf('dfa_conflicts'))).toBe(9);
    expect(metricValueOf(p, metricOf('human_level'))).toBe(2);
    expect(metricValueOf(p, metricOf('cadical_conflicts'))).toBe(11);
  });

  it('takes the old spellings of select, simulate and pack as the same metric', () => {
    for (const [old, name] of [
      ['conflicts', 'sat_conflicts'],
      ['decisions', 'sat_decisions'],
      ['level', 'human_level'],
      ['human.level', 'human_level'],
      ['sat.conflicts', 'sat_conflicts'],
      ['sat_dfa.conflicts', 'dfa_conflicts'],
      ['sat_cadical.decisions', 'cadical_decisions'],
    ])
      expect(metricOf(old).name, old).toBe(name);
  });

  it('a metric the puzzle does not carry reads as null', () => {
    expect(metricValueOf(p, metricOf('human_footholds'))).toBeNull();
    expect(metricValueOf(p, metricOf('picosat_conflicts'))).toBeNull();
    expect(metricValueOf({ ...p, metrics: undefined }, metricOf('sat_conflicts'))).toBeNull();
  });

  it('an unknown name is an error that says what is accepted', () => {
    for (const bad of ['conflcts', 'sat_conflcts', 'foo_conflicts', 'human_conflicts', 'human.level.x', 'metrics.sat.conflicts', '', 'sat_'])
      expect(() => metricOf(bad), bad).toThrow(MetricNameError);
    expect(() => metricOf('conflcts')).toThrow(/unknown metric 'conflcts'.*<source>_<key>.*sat_conflicts/);
    expect(() => metricOf('sat_conflcts')).toThrow(/'conflcts' is not a solver metric \(decisions, propagations, conflicts, restarts\)/);
  });
});
