import { describe, expect, it } from 'vitest';
import { isEligible } from './eligibility.ts';

describe('eligibility', () => {
  const criteria = { age_ok: ['Yes'], vision: ['Normal', 'Corrected to normal'], languages: ['English'], level: [1, 2] };
  it('passes when every named answer is accepted', () => {
    expect(isEligible({ age_ok: 'Yes', vision: 'Normal', languages: ['German', 'English'], level: 2, other: 'x' }, { criteria })).toBe(true);
  });
  it('fails on any unaccepted or missing answer', () => {
    expect(isEligible({ age_ok: 'No', vision: 'Normal', languages: ['English'], level: 1 }, { criteria })).toBe(false);
    expect(isEligible({ age_ok: 'Yes', vision: 'Normal', languages: ['German'], level: 1 }, { criteria })).toBe(false);
    expect(isEligible({ age_ok: 'Yes', vision: 'Normal', languages: ['English'] }, { criteria })).toBe(false);
    expect(isEligible({ age_ok: 'Yes', vision: 'Normal', languages: ['English'], level: 3 }, { criteria })).toBe(false);
  });
});
