// Survey answers: validation of one answer per config item, with messages shown next to the item (in English here,
// the server's check; the participant's page says the same problems in its language from answerProblems.ts).
import type { SurveyItem } from '../schema/config.ts';
import { fill } from '../i18n/fill.ts';
import { enSteps } from '../i18n/en.steps.ts';
import { answerProblems, type Answer } from './answerProblems.ts';

export type { Answer, AnswerProblem } from './answerProblems.ts';
export { answerProblems } from './answerProblems.ts';

/** Returns a message per item id that is not answered acceptably; empty when all is well. */
export function validateAnswers(items: readonly SurveyItem[], answers: Record<string, Answer>): Record<string, string> {
  const problems = answerProblems(items, answers);
  return Object.fromEntries(Object.entries(problems).map(([id, p]) => [id, fill((enSteps as Record<string, string>)[p.key], p.args)]));
}
