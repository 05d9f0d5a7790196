import { describe, expect, it } from 'vitest';
import { InputText, TutorialPhase } from '../schema/config.ts';
import { textFor } from './inputText.ts';

describe('config texts per input kind', () => {
  it('keeps a plain string working for every input', () => {
    for (const input of ['pointer', 'touch', 'keyboard'] as const) expect(textFor('Solve it.', input)).toBe('Solve it.');
    expect(TutorialPhase.parse({ kind: 'tutorial', id: 't', title: 'T', text: 'plain', puzzle: 'p' }).text).toBe('plain');
  });
  it('shows the variant of the input in use, else the default, else the nearest kind', () => {
    const text = { pointer: 'Click a cell.', touch: 'Tap a cell.', default: 'Mark a cell.' };
    expect(textFor(text, 'pointer')).toBe('Click a cell.');
    expect(textFor(text, 'touch')).toBe('Tap a cell.');
    expect(textFor(text, 'keyboard')).toBe('Mark a cell.');
    expect(textFor({ pointer: 'Click.' }, 'keyboard')).toBe('Click.');
    expect(textFor({ touch: 'Tap.' }, 'pointer')).toBe('Tap.');
  });
  it('refuses an empty variant object and unknown input kinds, naming the field', () => {
    expect(InputText.safeParse({}).success).toBe(false);
    const bad = TutorialPhase.safeParse({ kind: 'tutorial', id: 't', title: 'T', text: { mouse: 'x' }, puzzle: 'p' });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('text');
  });
});
