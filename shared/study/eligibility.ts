// Eligibility screening: whether a participant's survey answers meet the study's criteria.
import type { Eligibility } from '../schema/config.ts';
import type { Answer } from './survey.ts';

/**
 * Each criterion names an item and its accepted answers. A single answer (choice, scale, number, text) must be one
 * of them; a multiple choice passes when at least one chosen option is accepted. A missing answer fails.
 */
export function isEligible(answers: Record<string, Answer>, eligibility: Pick<Eligibility, 'criteria'>): boolean {
  return Object.entries(eligibility.criteria).every(([id, accepted]) => {
    const v = answers[id];
    if (v === undefined || v === null) return false;
    if (Array.isArray(v)) return v.some((x) => accepted.includes(x));
    return accepted.includes(v);
  });
}
