import { describe, expect, it } from 'vitest';
import { SurveyItem } from '../schema/config.ts';
import { validateAnswers } from './survey.ts';

const items = [
  { type: 'scale', id: 'skill', label: 'Skill', min: 1, max: 10 },
  { type: 'single', id: 'often', label: 'How often', options: ['Never', 'Often'] },
  { type: 'multi', id: 'kinds', label: 'Kinds', options: ['Sudoku', 'Kakuro'], required: false },
  { type: 'number', id: 'age', label: 'Age', min: 18, max: 120 },
  { type: 'text', id: 'comment', label: 'Comments', required: false },
].map((i) => SurveyItem.parse(i));

describe('validateAnswers', () => {
  it('accepts complete valid answers', () => {
    expect(validateAnswers(items, { skill: 7, often: 'Never', kinds: ['Sudoku'], age: 30, comment: '' })).toEqual({});
  });
  it('names every missing or invalid item', () => {
    const errors = validateAnswers(items, { skill: 11, often: 'Sometimes', kinds: ['Chess'], age: 17.5 });
    expect(Object.keys(errors).sort()).toEqual(['age', 'kinds', 'often', 'skill']);
    expect(errors.skill).toContain('1 to 10');
  });
  it('requires required items only', () => {
    expect(Object.keys(validateAnswers(items, {})).sort()).toEqual(['age', 'often', 'skill']);
  });
});
