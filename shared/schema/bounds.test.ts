// Any valid config yields only valid events: the answers, ratings and keys a participant can produce from the most
// extreme config the schema accepts are all accepted by the event schema (so no event of an honest participant can be
// refused for its size, and stall the outbox behind it).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudyConfig, type SurveyItem } from './config.ts';
import { ClientEvent } from './event.ts';
import { createRng, type Rng } from '../random.ts';
import { validateAnswers } from '../study/survey.ts';

// The default study in English only: the configs below change its survey items, which a declared language would need translated.
const { languages: _languages, ...base } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'study-config', 'study.json'), 'utf8'));
const LETTERS = 'abcdefghijklmnopqrstuvwxyzé😀 <>"=+';

function text(rng: Rng, length: number): string {
  let s = '';
  while (s.length < length) s += LETTERS[rng.int(LETTERS.length)];
  return s.slice(0, length);
}

/** A random config item at the bounds the config schema allows (longest options, longest text, most options). */
function extremeItem(rng: Rng, id: string): unknown {
  const optionCount = (max: number) => (rng.next() < 0.5 ? max : 2 + rng.int(max - 1));
  const options = (n: number) => Array.from({ length: n }, (_, i) => `${i}${text(rng, 500)}`.slice(0, rng.next() < 0.5 ? 500 : 2 + rng.int(498)));
  switch (rng.int(6)) {
    case 0:
      return { id, label: 'q', type: 'likert', options: options(optionCount(11)) };
    case 1:
      return { id, label: 'q', type: 'single', options: options(optionCount(30)) };
    case 2:
      return { id, label: 'q', type: 'multi', options: options(optionCount(30)) };
    case 3:
      return { id, label: 'q', type: 'scale', min: -1_000_000, max: 1_000_000 };
    case 4:
      return { id, label: 'q', type: 'number', integer: rng.next() < 0.5 };
    default:
      return { id, label: 'q', type: 'text', max_length: rng.next() < 0.5 ? 20_000 : 1 + rng.int(20_000) };
  }
}

/** Every kind of answer the survey screen lets through for an item (it runs validateAnswers before submitting). */
function answersFor(rng: Rng, item: SurveyItem): unknown[] {
  switch (item.type) {
    case 'likert':
    case 'single':
      return item.options;
    case 'multi':
      return [item.options, [item.options[0]], item.options.slice(0, 1 + rng.int(item.options.length))];
    case 'scale':
      return [item.min, item.max];
    case 'number':
      return [0, -1e300, 1e300, 0.5, Number.MAX_SAFE_INTEGER];
    case 'text':
      return [text(rng, item.max_length), ''];
  }
}

const envelope = (type: string, payload: unknown) => ({
  session_id: 's0123456789abcdef',
  seq: 1,
  step: 3,
  phase: 'p'.repeat(64),
  puzzle_id: 'x'.repeat(64),
  position: 20,
  t_mono: 1_000,
  t_wall: 1_780_000_000_000,
  source: 'touch',
  type,
  payload,
});

describe('config bounds and event bounds agree', () => {
  it('every answer, rating and key a valid config allows makes a valid event (seeded, 200 configs)', () => {
    const rng = createRng(11);
    for (let n = 0; n < 200; n++) {
      const items = Array.from({ length: 1 + rng.int(6) }, (_, i) => extremeItem(rng, `${'i'.repeat(60)}${i}`));
      const puzzlesPhase = base.phases.find((p: { kind: string }) => p.kind === 'puzzles');
      const guessing = Array.from({ length: 2 + rng.int(4) }, () => text(rng, rng.next() < 0.5 ? 200 : 1 + rng.int(199)));
      const raw = {
        ...base,
        phases: base.phases.map((p: { kind: string }) =>
          p.kind === 'survey' ? { ...p, items } : p.kind === 'puzzles' ? { ...puzzlesPhase, rating: { ...puzzlesPhase.rating, guessing_options: guessing } } : p,
        ),
      };
      const parsed = StudyConfig.safeParse(raw);
      expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 2))).toBe(true);
      const config = parsed.data!;
      const survey = config.phases.find((p) => p.kind === 'survey')!;
      if (survey.kind !== 'survey') throw new Error('no survey');
      for (const item of survey.items)
        for (const value of answersFor(rng, item)) {
          const answers = { [item.id]: value as never };
          if (Object.keys(validateAnswers([item], answers)).length > 0 && value !== '') continue;
          const e = ClientEvent.safeParse(envelope('survey_submit', { survey_id: survey.id, answers }));
          expect(e.success, `${item.type} ${String(value).slice(0, 40)}: ${JSON.stringify(e.error?.issues?.slice(0, 1))}`).toBe(true);
        }
      // The post-survey's per-puzzle question is keyed by the longest puzzle id.
      const why = ClientEvent.safeParse(envelope('survey_submit', { survey_id: 'post_survey', answers: { [`why_${'x'.repeat(64)}`]: text(rng, 5_000) } }));
      expect(why.success).toBe(true);
      const puzzles = config.phases.find((p) => p.kind === 'puzzles')!;
      if (puzzles.kind !== 'puzzles') throw new Error('no puzzles phase');
      for (const guessingAnswer of puzzles.rating.guessing_options)
        for (const difficulty of [1, 5, null]) expect(ClientEvent.safeParse(envelope('rating', { difficulty, guessing: guessingAnswer })).success).toBe(true);
    }
  });

  it('the config schema refuses what no event could carry', () => {
    const bad = (patch: (c: any) => void) => {
      const c = structuredClone(base);
      patch(c);
      return StudyConfig.safeParse(c).success;
    };
    expect(bad((c) => (c.phases.find((p: any) => p.kind === 'survey').items[0] = { id: 'a', label: 'a', type: 'single', options: ['x'.repeat(501), 'b'] }))).toBe(false);
    expect(bad((c) => (c.phases.find((p: any) => p.kind === 'survey').items[0] = { id: 'a', label: 'a', type: 'text', max_length: 20_001 }))).toBe(false);
    expect(bad((c) => (c.phases.find((p: any) => p.kind === 'puzzles').rating.guessing_options = ['x'.repeat(201), 'b']))).toBe(false);
  });
});
