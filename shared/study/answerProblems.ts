// What is wrong with a participant's survey answers, as catalogue messages: the page says them in the participant's
// language (client/src/ui/Survey.tsx), the server in English (survey.ts: validateAnswers). Apart from survey.ts so
// the page's first load carries no English catalogue.
import type { SurveyItem } from '../schema/config.ts';
import type { MessageArgs } from '../i18n/format.ts';
import type { MessageKey } from '../i18n/en.ts';

export type Answer = number | string | string[] | null;

/** What is wrong with an answer: its catalogue message and arguments. */
export interface AnswerProblem {
  key: MessageKey;
  args?: MessageArgs;
}

/** The problem of each item that is not answered acceptably; empty when all is well. */
export function answerProblems(items: readonly SurveyItem[], answers: Record<string, Answer>): Record<string, AnswerProblem> {
  const errors: Record<string, AnswerProblem> = {};
  const say = (key: MessageKey, args?: MessageArgs): AnswerProblem => ({ key, args });
  for (const item of items) {
    const v = answers[item.id];
    const empty = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (item.required) errors[item.id] = say('survey.required');
      continue;
    }
    switch (item.type) {
      case 'scale':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < item.min || v > item.max) errors[item.id] = say('survey.scaleRange', { min: item.min, max: item.max });
        break;
      case 'number':
        if (typeof v !== 'number' || !Number.isFinite(v)) errors[item.id] = say('survey.number');
        else if (item.integer && !Number.isInteger(v)) errors[item.id] = say('survey.wholeNumber');
        else if (item.min !== undefined && v < item.min) errors[item.id] = say('survey.atLeast', { min: item.min });
        else if (item.max !== undefined && v > item.max) errors[item.id] = say('survey.atMost', { max: item.max });
        break;
      case 'likert':
      case 'single':
        if (typeof v !== 'string' || !item.options.includes(v)) errors[item.id] = say('survey.oneOption');
        break;
      case 'multi':
        if (!Array.isArray(v) || v.some((x) => !item.options.includes(x))) errors[item.id] = say('survey.options');
        break;
      case 'text':
        if (typeof v !== 'string') errors[item.id] = say('survey.text');
        else if (v.length > item.max_length) errors[item.id] = say('survey.tooLong', { max: item.max_length });
        break;
    }
  }
  return errors;
}
