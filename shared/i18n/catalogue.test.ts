// The catalogues agree: every language has every key of English and no other, each message with the same placeholders.
import { describe, expect, it } from 'vitest';
import { CATALOGUES, MESSAGE_KEYS } from './catalogues.ts';
import { en } from './en.ts';
import { enPage } from './en.page.ts';
import { enSteps } from './en.steps.ts';
import { formatMessage, placeholders } from './format.ts';
import { fill } from './fill.ts';
import { SHIPPED_LANGUAGES } from './languages.ts';

describe('message catalogues', () => {
  it('the key list is exactly the English catalogue\'s keys (the page\'s first part and its steps\' part, no key in both)', () => {
    expect(Object.keys(en).sort()).toEqual([...MESSAGE_KEYS].sort());
    expect(Object.keys(enPage).filter((k) => Object.hasOwn(enSteps, k))).toEqual([]);
  });
  it("the first load's words (en.page.ts) need only plain placeholders, in every language: fill.ts formats them as format.ts does", () => {
    for (const [lang, messages] of Object.entries(CATALOGUES))
      for (const key of Object.keys(enPage) as (keyof typeof enPage)[]) {
        const message = messages[key];
        const args = Object.fromEntries(placeholders(message).map((p, i) => [p, `v${i}`]));
        expect(fill(message, args), `${lang} ${key}`).toBe(formatMessage(message, args));
        expect(message, `${lang} ${key}`).not.toMatch(/, *(plural|select|number)\b|''/);
      }
  });
  it('every shipped language has a catalogue', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...SHIPPED_LANGUAGES].sort());
  });
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    it(`${lang}: every key of English and no other, same placeholders, parses, no English left`, () => {
      expect(Object.keys(messages).sort()).toEqual([...MESSAGE_KEYS].sort());
      for (const key of MESSAGE_KEYS) {
        expect(placeholders(messages[key]), `${lang} ${key}`).toEqual(placeholders(en[key]));
        expect(messages[key].trim(), `${lang} ${key}`).not.toBe('');
        if (lang === 'en') continue;
        // A translation that is the English text word for word is a string someone forgot (keys that are the same in
        // every language are listed here).
        if (!SAME_EVERYWHERE.has(key)) expect(messages[key], `${lang} ${key} is still English`).not.toBe(en[key]);
      }
    });
  }
  it('plurals: German and Arabic say each count in their own grammar', () => {
    expect(formatMessage(CATALOGUES.de['survey.needAnswers'], { count: 1 }, 'de')).toBe('Eine Frage braucht noch eine Antwort.');
    expect(formatMessage(CATALOGUES.de['survey.needAnswers'], { count: 3 }, 'de')).toBe('3 Fragen brauchen noch eine Antwort.');
    expect(formatMessage(CATALOGUES.ar['survey.needAnswers'], { count: 2 }, 'ar-u-nu-latn')).toBe('يحتاج سؤالان إلى إجابة.');
    expect(formatMessage(CATALOGUES.ar['survey.needAnswers'], { count: 4 }, 'ar-u-nu-latn')).toBe('تحتاج 4 أسئلة إلى إجابة.');
    expect(formatMessage(CATALOGUES.ar['survey.needAnswers'], { count: 11 }, 'ar-u-nu-latn')).toBe('يحتاج 11 سؤالًا إلى إجابة.');
    expect(formatMessage(en['survey.needAnswers'], { count: 1 })).toBe('One question needs an answer.');
    expect(formatMessage(en['survey.needAnswers'], { count: 2 })).toBe('2 questions need an answer.');
  });
});

const SAME_EVERYWHERE = new Set<string>([]);
