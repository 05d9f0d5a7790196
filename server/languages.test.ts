// The participant API in a study's languages: the language a start asks for, stamped on session_start, kept on
// resume; one language's texts per page; the closed page's texts in the link's language.
import { afterEach, describe, expect, it } from 'vitest';
import { Participant, startTestServer, type TestServer } from '../tests/support/testServer.ts';
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
});
