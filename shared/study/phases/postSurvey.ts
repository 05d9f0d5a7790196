// Phase kind 'post_survey': one step; ratings may be revised; ends once valid answers were submitted.
import { PostSurveyPhase } from '../../schema/phase.ts';
import type { Rng } from '../../random.ts';
import { answerItem, clamp, logNormal, pick, surveyAnswers } from './simulate.ts';
import { noClock, reasons, singleStep, type PhaseModule, type PhaseSimulate } from './types.ts';

export const postSurveyKind: PhaseModule<'post_survey'> = {
  kind: 'post_survey',
  params: PostSurveyPhase,
  expand: singleStep,
  boards: [],
  capSeconds: noClock,
  skipAfterSeconds: noClock,
  records: { post_survey: ['rating_revise', 'survey_submit'] },
  timed: [],
  end({ reason, facts }) {
    return reasons(['done'], reason) ?? (facts.survey ? null : 'the survey has not been submitted');
  },
};

/**
 * Looks back at each puzzle: now and then revises its rating by one point, and says why it was easy or hard (a
 * free-text answer `why_<puzzle>` whose themes are kept as a simulated coder's codes); then answers the items.
 */
export const simulatePostSurvey: PhaseSimulate<'post_survey'> = ({ phase, steps, page, rng, who, memory }) => {
  const { ratings, outcomes } = memory;
  const whys: Record<string, string> = {};
  for (const s of steps.filter((x) => x.kind === 'puzzle')) {
    const id = s.puzzle_id!;
    if (ratings[id] !== null && ratings[id] !== undefined && rng.next() < 0.15) {
      const to = clamp(ratings[id]! + (rng.next() < 0.5 ? -1 : 1), 1, 5);
      if (to !== ratings[id]) {
        page.wait(logNormal(rng, 3_000, 0.4));
        page.log('rating_revise', { rated_puzzle_id: id, from: ratings[id], to }, 'mouse');
        ratings[id] = to;
      }
    }
    const why = whyAnswer(ratings[id] ?? null, outcomes[id]?.hints ?? 0, outcomes[id]?.errors ?? false, rng);
    whys[`why_${id}`] = why.text;
    memory.codes.push({ puzzle_id: id, codes: why.codes });
    page.wait(logNormal(rng, 20_000, 0.5));
  }
  const items = surveyAnswers(phase, (item) => {
    page.wait(logNormal(rng, 6_000, 0.5));
    return item.id === 'strategies' ? 'I started with the lines whose clues filled most of the line, then crossed out the rest.' : answerItem(item, who.skill, rng);
  });
  page.log('survey_submit', { survey_id: phase.id, answers: { ...whys, ...items } }, 'mouse');
  page.log('step_end', { kind: page.step.kind, reason: 'done' });
};

const WHY: Record<string, string[]> = {
  FOOT: ['Some lines were fully given by their clue, so I had a foothold.', 'There were full rows to start from.'],
  CLUE: ['Big numbers made it quick.', 'Lots of small numbers made it harder.'],
  PROP: ['Once I had a few cells everything followed.', 'I could chain one line into the next.'],
  AMBIG: ['Several lines had many possible placements.', 'It was ambiguous where the blocks went.'],
  GUESS: ['I had to guess at some point.', 'I ended up trying things.'],
  ERR: ['I made a mistake and had to fix it.', 'I filled a wrong cell early.'],
  LOAD: ['I had to keep too much in my head.', 'It needed a lot of concentration.'],
  HINT: ['The hint got me unstuck.'],
  TIME: ['It took me a long time.'],
};

function whyAnswer(difficulty: number | null, hints: number, errors: boolean, rng: Rng): { text: string; codes: string[] } {
  const d = difficulty ?? 5;
  const codes = new Set<string>();
  if (d <= 2 || rng.next() < 0.15) codes.add('FOOT');
  if (d <= 2 && rng.next() < 0.5) codes.add('PROP');
  if (d >= 3 && rng.next() < 0.3 + 0.15 * (d - 3)) codes.add('AMBIG');
  if (d >= 4 && rng.next() < 0.6) codes.add('GUESS');
  if (d >= 4 && rng.next() < 0.4) codes.add('LOAD');
  if (rng.next() < 0.25) codes.add('CLUE');
  if (hints > 0) codes.add('HINT');
  if (errors) codes.add('ERR');
  if (d >= 4 && rng.next() < 0.3) codes.add('TIME');
  if (codes.size === 0) codes.add(d <= 3 ? 'PROP' : 'AMBIG');
  const list = [...codes];
  return { text: list.map((c) => pick(rng, WHY[c])).join(' '), codes: list };
}

