import { describe, expect, it } from 'vitest';
import { formatMessage, placeholders } from './format.ts';

describe('formatMessage (the ICU MessageFormat subset of the catalogues)', () => {
  it('fills placeholders, keeps text and apostrophes', () => {
    expect(formatMessage('Puzzle {n} of {total}', { n: 2, total: 3 })).toBe('Puzzle 2 of 3');
    expect(formatMessage("This study link's id")).toBe("This study link's id");
    expect(formatMessage("It''s '{literal}' here")).toBe("It's {literal} here");
    expect(formatMessage('gap {missing}', {})).toBe('gap {missing}');
  });
  it('plurals by the locale, exact values first, # as the number', () => {
    const m = '{count, plural, =0 {none} one {One question} other {# questions}}';
    expect(formatMessage(m, { count: 0 })).toBe('none');
    expect(formatMessage(m, { count: 1 })).toBe('One question');
    expect(formatMessage(m, { count: 1200 })).toBe('1,200 questions');
    // Arabic has six plural categories: 'two' and 'few' are its own.
    const ar = '{n, plural, zero {صفر} one {واحد} two {اثنان} few {# قليلة} many {# كثيرة} other {# أخرى}}';
    expect(formatMessage(ar, { n: 2 }, 'ar-u-nu-latn')).toBe('اثنان');
    expect(formatMessage(ar, { n: 5 }, 'ar-u-nu-latn')).toBe('5 قليلة');
    expect(formatMessage(ar, { n: 11 }, 'ar-u-nu-latn')).toBe('11 كثيرة');
    expect(formatMessage(ar, { n: 5 }, 'ar-u-nu-arab')).toBe('٥ قليلة');
  });
  it('numbers as the locale writes them, selects by text', () => {
    expect(formatMessage('{n, number}', { n: 1234.5 }, 'de')).toBe('1.234,5');
    expect(formatMessage('{n}', { n: 1234.5 }, 'de')).toBe('1234.5');
    const m = '{axis, select, row {Row} other {Column}} {line}';
    expect(formatMessage(m, { axis: 'row', line: 3 })).toBe('Row 3');
    expect(formatMessage(m, { axis: 'col', line: 4 })).toBe('Column 4');
  });
  it('names every placeholder, nested ones included', () => {
    expect(placeholders('{a} {b, plural, one {{c}} other {# {d, select, x {} other {{e}}}}}')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(() => formatMessage('{n, date}', { n: 1 })).toThrow(/unsupported/);
  });
});
