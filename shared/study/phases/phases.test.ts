// Phase kinds as modules: each kind answers for its schema, steps, board, clocks and records, the same wherever asked.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Phase, StudyConfig } from '../../schema/config.ts';
import { ClientEvent } from '../../schema/event.ts';
import { expandSteps } from '../steps.ts';
import { validateAnswers } from '../survey.ts';
import { isEligible } from '../eligibility.ts';
import { createRng } from '../../random.ts';
import { moduleOf, phaseKinds, showsBoard } from './index.ts';
import { firstChoice, randomChoice, surveyAnswers } from './simulate.ts';

const config = StudyConfig.parse(JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'study-config', 'study.json'), 'utf8')));
const sequence = config.puzzles.map((p) => p.id);

describe('phase kind modules', () => {
  it('cover every kind of the config schema, each under its own kind, with that kind\'s config schema', () => {
    const kinds = Phase.options.map((o) => o.shape.kind.value).sort();
    expect(Object.keys(phaseKinds).sort()).toEqual(kinds);
    for (const [kind, module] of Object.entries(phaseKinds)) {
      expect(module.kind).toBe(kind);
      expect(Phase.options.find((o) => o.shape.kind.value === kind)).toBe(module.params);
    }
    for (const phase of config.phases) expect(moduleOf(phase).params.safeParse(phase).success).toBe(true);
  });

  it('expand the default study into its timeline: one step per phase, puzzle and rating per study puzzle', () => {
    const steps = expandSteps(config.phases, sequence);
    const count = config.phases.find((p) => p.kind === 'puzzles')!.count;
    expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
    expect(steps.length).toBe(config.phases.length - 1 + 2 * count);
    const puzzles = steps.filter((s) => s.kind === 'puzzle');
    expect(puzzles.map((s) => s.puzzle_id)).toEqual(sequence.slice(0, count));
    expect(puzzles.map((s) => s.position)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    for (const s of steps) {
      if (s.kind === 'puzzle') expect(steps[s.index + 1]).toMatchObject({ kind: 'rating', puzzle_id: s.puzzle_id, position: s.position });
      const phase = config.phases.find((p) => p.id === s.phase_id)!;
      if (phase.kind === 'tutorial' || phase.kind === 'warmup') expect(s.puzzle_id).toBe(phase.puzzle);
    }
  });

  it('say which steps show a board: the practice boards and the study puzzles, nothing else', () => {
    expect(['tutorial', 'warmup', 'puzzle'].every(showsBoard)).toBe(true);
    expect(['consent', 'survey', 'rating', 'post_survey', 'complete', 'board', undefined, 3].some(showsBoard)).toBe(false);
  });

  it('let only board steps record moves, and only records the schema knows', () => {
    const types = new Set(ClientEvent.options.map((o) => o.shape.type.value));
    for (const module of Object.values(phaseKinds))
      for (const [stepKind, records] of Object.entries(module.records)) {
        for (const r of records!) expect(types.has(r), `${module.kind}.${stepKind}: ${r}`).toBe(true);
        expect(records!.includes('move')).toBe(showsBoard(stepKind));
      }
  });

  it('give clocks only to capped board steps', () => {
    for (const s of expandSteps(config.phases, sequence)) {
      const phase = config.phases.find((p) => p.id === s.phase_id)!;
      const cap = moduleOf(phase).capSeconds(phase, s);
      if (phase.kind === 'warmup') expect(cap).toBe(phase.cap_seconds);
      else if (phase.kind === 'puzzles' && s.kind === 'puzzle') expect(cap).toBe(phase.time_limit_seconds ?? null);
      else expect(cap).toBeNull();
      if (!showsBoard(s.kind)) expect(moduleOf(phase).skipAfterSeconds(phase, s)).toBeNull();
    }
  });
});

describe('survey answers for bots and tests', () => {
  const surveys = config.phases.filter((p) => p.kind === 'survey' || p.kind === 'post_survey');
  it('are valid for every survey of the default study, first choices and random ones alike', () => {
    expect(surveys.length).toBeGreaterThan(0);
    const rng = createRng(5);
    for (const phase of surveys)
      for (const choose of [firstChoice, randomChoice(rng, 'a <b>text</b> é')]) {
        const answers = surveyAnswers(phase, choose);
        expect(Object.keys(answers)).toEqual(phase.items.map((i) => i.id));
        expect(validateAnswers(phase.items, answers)).toEqual({});
      }
  });
  it('meet a survey\'s eligibility criteria', () => {
    const survey = surveys.find((p) => p.kind === 'survey')!;
    if (survey.kind !== 'survey') throw new Error('no survey');
    const item = survey.items.find((i) => i.type === 'single' || i.type === 'likert')!;
    if (item.type !== 'single' && item.type !== 'likert') throw new Error('no choice item');
    const last = item.options.at(-1)!;
    const screened = { ...survey, eligibility: { criteria: { [item.id]: [last] }, message: 'no' } };
    const answers = surveyAnswers(screened);
    expect(answers[item.id]).toBe(last);
    expect(isEligible(answers, screened.eligibility)).toBe(true);
    expect(validateAnswers(screened.items, answers)).toEqual({});
  });
});
