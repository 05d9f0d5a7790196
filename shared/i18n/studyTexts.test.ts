// A study in its languages: what each language's page receives, and the language a link gets.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { StudyConfig } from '../schema/config.ts';
import { clientStudyIn, loadedStudy } from '../study/config.ts';
import { sessionLanguage, studyTexts } from './studyTexts.ts';

const raw = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'study-config', 'study.json'), 'utf8'));
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const study = loadedStudy(StudyConfig.parse(raw), sha);

describe('a study in its languages', () => {
  it('a link gets the language it asks for where the study declares it, else the default; a study without languages is English', () => {
    const languages = study.config.languages!;
    expect(sessionLanguage(languages, 'de')).toBe('de');
    expect(sessionLanguage(languages, 'fr')).toBe('en');
    expect(sessionLanguage(languages, undefined)).toBe('en');
    expect(sessionLanguage(undefined, 'de')).toBe('en');
  });

  it('English (the default, nothing overridden) is the study as the page always got it: no language block, no other language', () => {
    expect(clientStudyIn(study, 'en')).toBe(study.client);
    expect(JSON.stringify(clientStudyIn(study, 'en'))).not.toContain('Einwilligung');
    const { languages: _languages, ...english } = raw;
    const plain = loadedStudy(StudyConfig.parse(english), sha);
    expect(clientStudyIn(plain, 'de')).toBe(plain.client);
  });

  it("German: every text in German, options' labels by path with the answers kept in English, and no Arabic sent", () => {
    const de = clientStudyIn(study, 'de');
    expect(de.language).toMatchObject({ lang: 'de', native_digits: false, messages: {} });
    expect(de.title).toBe('Wie schwer sind Nonogramme?');
    const consent = de.phases.find((p) => p.kind === 'consent')!;
    expect(consent.title).toBe('Einwilligung zur Teilnahme');
    expect(consent.kind === 'consent' && consent.agree_label).toBe('Ich willige ein');
    const survey = de.phases.find((p) => p.id === 'pre_survey')!;
    const item = survey.kind === 'survey' ? survey.items.find((i) => i.id === 'nonogram_frequency')! : null;
    expect(item?.label).toBe('Wie oft lösen Sie Nonogramme?');
    expect(item && 'options' in item && item.options[0]).toBe('Never');
    expect(de.language!.options['pre_survey.nonogram_frequency.options.0']).toBe('Nie');
    expect(de.language!.options['puzzles.rating.guessing_options.4']).toBe('Immer');
    const tutorial = de.phases.find((p) => p.kind === 'tutorial')!;
    expect(typeof tutorial.text === 'object' && tutorial.text.touch).toMatch(/lange darauf/);
    expect(JSON.stringify(de)).not.toMatch(/[\u0600-\u06FF]/);
    // Every text of the study has its German, so the page shows none of the English.
    const english = studyTexts(study.config).filter((s) => !s.option && typeof s.text === 'string').map((s) => s.text as string);
    const shown = JSON.stringify(de.phases);
    for (const text of english) if (!['Sudoku', 'Kakuro', 'KenKen', 'Minesweeper', 'Slitherlink', '10x10', '15x15', '20x20'].includes(text)) expect(shown, text).not.toContain(JSON.stringify(text));
  });

  it('Arabic: the phases in Arabic, the same puzzles as every language', () => {
    const ar = clientStudyIn(study, 'ar');
    expect(ar.language?.lang).toBe('ar');
    expect(ar.phases.find((p) => p.kind === 'complete')!.title).toBe('شكرًا لك!');
    expect(ar.puzzles).toEqual(study.client.puzzles);
    expect(ar.config_hash).toBe(study.hash);
  });
});
