// "You can skip after 30 s" counts down (issue 32): the participant sees how long is left, not a fixed sentence.
import { describe, expect, it, beforeAll } from 'vitest';
import { skipWaitSeconds } from '../../../shared/study/timing.ts';
import { skipNoteText } from './skipNote.ts';
import { loadStepWords } from '../i18n.ts';

// The page fetches the steps' English words beside the board's chunk (they are not in its first load).
beforeAll(() => loadStepWords());

describe('the skip countdown', () => {
  it('whole seconds until Skip is allowed, rounded up; null once allowed or when there is no wait', () => {
    expect(skipWaitSeconds(30, 0)).toBe(30);
    expect(skipWaitSeconds(30, 100)).toBe(30);
    expect(skipWaitSeconds(30, 1_000)).toBe(29);
    expect(skipWaitSeconds(30, 29_001)).toBe(1);
    expect(skipWaitSeconds(30, 30_000)).toBeNull();
    expect(skipWaitSeconds(null, 0)).toBeNull();
    expect(skipWaitSeconds(0, 0)).toBeNull();
  });

  it('the note counts down, in seconds then minutes', () => {
    expect(skipNoteText(30, 30)).toBe('You can skip in 30 s.');
    expect(skipNoteText(30, 7)).toBe('You can skip in 7 s.');
    expect(skipNoteText(120, 95)).toBe('You can skip in 1:35 min.');
    // Before the clock has ticked (or without one): the rule itself.
    expect(skipNoteText(30, null)).toBe('You can skip after 30 s.');
    expect(skipNoteText(120, null)).toBe('You can skip after 2 min.');
    expect(skipNoteText(0, null)).toBeUndefined();
  });
});
