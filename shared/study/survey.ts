// Survey answers: validation of one answer per config item, with messages shown next to the item.
import type { SurveyItem } from '../schema/config.ts';
import type { MessageArgs } from '../i18n/format.ts';
import { fill } from '../i18n/fill.ts';
import { enPage } from '../i18n/en.page.ts';
import type { MessageKey } from '../i18n/en.ts';

/** English by default (the server's check); the participant's page passes its own language. */
const english = (key: MessageKey, args?: MessageArgs): string => fill((enPage as Record<string, string>)[key] ?? key, args);

export type Answer = number | string | string[] | null;

/** Returns a message per item id that is not answered acceptably; empty when all is well. */
export function validateAnswers(items: readonly SurveyItem[], answers: Record<string, Answer>, say: (key: MessageKey, args?: MessageArgs) => string = english): Record<string, string> {
  const errors: Record<string, string> = {};
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
