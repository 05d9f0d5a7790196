// The participant API in a study's languages: the language a start asks for, stamped on session_start, kept on
// resume; one language's texts per page; the closed page's texts in the link's language.
import { afterEach, describe, expect, it } from 'vitest';
import { Participant, playSteps, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { hint as nonogramHint, hintExplanation } from '../shared/nonogram/hint.ts';
import { gridFromBoardRows } from '../shared/game/board.ts';
import { gridFromRows } from '../shared/nonogram/grid.ts';
import { hintWords } from '../shared/i18n/hints/catalogues.ts';
import { isNonogramPuzzle } from '../shared/schema/config.ts';
import { multilingualConfig, writeConfig } from '../tests/support/server.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('a study in English, German and Arabic', () => {
  it('a start with lang=ar speaks Arabic from then on and stamps it; an undeclared language gets the default; no lang is English as before', async () => {
    server = await startTestServer({ configPath: writeConfig(multilingualConfig()) });
    const arabic = new Participant(server.url);
    const started = await arabic.call('POST', '/api/sessions', { mode: 'general', lang: 'ar' });
    expect(started.status).toBe(201);
    expect(started.json.study.language).toMatchObject({ lang: 'ar', native_digits: false });
    expect(started.json.study.phases[0].title).toBe('الموافقة على المشاركة');
    expect(JSON.stringify(started.json)).not.toContain('Einwilligung');
    // A reload (another request, no lang) keeps the session's language.
    expect((await arabic.call('GET', '/api/session/current')).json.session.study.language.lang).toBe('ar');
    const [start] = await server.nonolab.log.read(started.json.session_id);
    expect(start).toMatchObject({ type: 'session_start', payload: { mode: 'general', lang: 'ar' } });

    const french = (await new Participant(server.url).call('POST', '/api/sessions', { lang: 'fr' })).json;
    expect(french.study.language).toBeUndefined();
    expect(french.study.phases[0].title).toBe('Consent to take part');
    expect((await server.nonolab.log.read(french.session_id))[0]).toMatchObject({ type: 'session_start', payload: { lang: 'en' } });
    const plain = (await new Participant(server.url).call('POST', '/api/sessions', {})).json;
    expect(plain.study.language).toBeUndefined();
  });

  it('the page of a closed study speaks the link\'s language, and so does the refusal of a start', async () => {
    const config = multilingualConfig();
    config.recruitment = { ...config.recruitment, open: false } as typeof config.recruitment;
    server = await startTestServer({ configPath: writeConfig(config) });
    const p = new Participant(server.url);
    expect((await p.call('GET', '/api/recruitment?lang=de')).json).toEqual({
      accepting: false,
      closed_title: 'Diese Studie nimmt keine Teilnehmenden auf',
      closed_message: expect.stringMatching(/^Vielen Dank für Ihr Interesse/),
    });
    expect((await p.call('GET', '/api/recruitment')).json.closed_title).toBe('This study is not taking participants');
    const refused = await p.call('POST', '/api/sessions', { lang: 'ar' });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatch(/^شكرًا لاهتمامك/);
  });

  it('hints speak the session\'s language: German words for a German session (the study\'s override on top), English as before for an English one', async () => {
    const config = multilingualConfig();
    config.languages!.messages = { ...config.languages!.messages, de: { ...config.languages!.messages?.de, 'hint.heading': 'Ihr Tipp · {where}' } };
    server = await startTestServer({ configPath: writeConfig(config) });
    const ask = async (lang: string) => {
      const p = new Participant(server!.url);
      const s = (await p.call('POST', '/api/sessions', { lang })).json;
      await playSteps(p, s, config, 1);
      const puzzle = config.puzzles.find((q) => q.id === s.sequence[0])!;
      if (!isNonogramPuzzle(puzzle)) throw new Error('the default study starts with a Nonogram');
      const blank = puzzle.solution!.map((r) => '?'.repeat(r.length));
      const cell = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: blank })).json.hint;
      // A mistake: the cell the first hint names, marked the other way.
      const wrong = blank.map((r, i) => (i === cell.row ? r.slice(0, cell.col) + (cell.value === 'filled' ? 'x' : '#') + r.slice(cell.col + 1) : r));
      const mistake = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: wrong })).json.hint;
      const engine = nonogramHint({ rows: puzzle.rows, cols: puzzle.cols }, gridFromBoardRows(wrong, puzzle.width, puzzle.height), gridFromRows(puzzle.solution!));
      return { cell, mistake, engine };
    };
    const de = await ask('de');
    expect(de.cell.heading).toMatch(/^Ihr Tipp · (Zeile|Spalte) \d+$/);
    expect(de.cell.explanation).toMatch(/Feld in Zeile \d+, Spalte \d+/);
    expect(de.cell.explanation).not.toMatch(/\b(the|cell|row|column|clue)\b/);
    expect(de.mistake.heading).toMatch(/^Tipp · Fehler in Zeile \d+, Spalte \d+/);
    expect(de.mistake.explanation).toBe(hintExplanation(de.engine!, hintWords('de')));
    expect(de.mistake.explanation).toMatch(/Es sollte (gefüllt sein\.|leer sein: Kreuzen Sie es an\.)$/);
    const ar = await ask('ar');
    expect(ar.mistake.explanation).toBe(hintExplanation(ar.engine!, hintWords('ar')));
    expect(ar.cell.heading).toMatch(/^تلميح · (الصف|العمود) \d+$/);
    const en = await ask('en');
    expect(en.mistake.explanation).toBe(en.engine!.explanation);
    expect(en.cell.heading).toMatch(/^Hint · (Row|Column) \d+$/);
    // The page is sent only its own strings: the hint override stays on the server.
    const page = await new Participant(server.url).call('POST', '/api/sessions', { lang: 'de' });
    expect(page.json.study.language.messages).not.toHaveProperty('hint.heading');
  });
});

