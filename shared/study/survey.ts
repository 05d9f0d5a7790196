// Survey answers: validation of one answer per config item, with messages shown next to the item.
import type { SurveyItem } from '../schema/config.ts';

export type Answer = number | string | string[] | null;

/** Returns a message per item id that is not answered acceptably; empty when all is well. */
export function validateAnswers(items: readonly SurveyItem[], answers: Record<string, Answer>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const item of items) {
    const v = answers[item.id];
    const empty = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (item.required) errors[item.id] = 'Please answer this question.';
      continue;
    }
    switch (item.type) {
      case 'scale':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < item.min || v > item.max) errors[item.id] = `Choose a whole number from ${item.min} to ${item.max}.`;
        break;
      case 'number':
        if (typeof v !== 'number' || !Number.isFinite(v)) errors[item.id] = 'Enter a number.';
        else if (item.integer && !Number.isInteger(v)) errors[item.id] = 'Enter a whole number.';
        else if (item.min !== undefined && v < item.min) errors[item.id] = `Enter a number of at least ${item.min}.`;
        else if (item.max !== undefined && v > item.max) errors[item.id] = `Enter a number of at most ${item.max}.`;
        break;
      case 'likert':
      case 'single':
        if (typeof v !== 'string' || !item.options.includes(v)) errors[item.id] = 'Choose one of the options.';
        break;
      case 'multi':
        if (!Array.isArray(v) || v.some((x) => !item.options.includes(x))) errors[item.id] = 'Choose among the options.';
        break;
      case 'text':
        if (typeof v !== 'string') errors[item.id] = 'Enter text.';
        else if (v.length > item.max_length) errors[item.id] = `Keep it under ${item.max_length} characters.`;
        break;
    }
  }
  return errors;
}
