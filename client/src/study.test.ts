import { describe, expect, it, beforeAll } from 'vitest';
import { startProblem, startRequest } from './study.ts';
import { StartSessionRequest } from '../../shared/schema/api.ts';
import { loadStepWords } from './i18n.ts';

// The page fetches the steps' English words beside the board's chunk (they are not in its first load).
beforeAll(() => loadStepWords());

describe('how a participant arrived', () => {
  it('reads Prolific, SONA, kiosk and general links into a valid start request', () => {
    const cases: [string, unknown][] = [
      ['?PROLIFIC_PID=abc123&STUDY_ID=st1&SESSION_ID=se1', { mode: 'panel', panel: { provider: 'prolific', participant_id: 'abc123', study_id: 'st1', session_id: 'se1' } }],
      ['?sona_id=4711', { mode: 'panel', panel: { provider: 'sona', participant_id: '4711' } }],
      ['?mode=kiosk&label=P07', { mode: 'kiosk', label: 'P07' }],
      ['', { mode: 'general' }],
    ];
    for (const [search, want] of cases) {
      const req = startRequest(new URLSearchParams(search));
      expect(req).toEqual(want);
      expect(StartSessionRequest.safeParse(req).success).toBe(true);
    }
  });
});

describe('a link that cannot start a session', () => {
  it('names the field, the value and what is allowed', () => {
    const label = startProblem(startRequest(new URLSearchParams('?mode=kiosk&label=%3Cb%3E')));
    expect(label).toBe('The participant label "<b>" cannot be used: labels cannot contain < or >. A label has 1 to 100 characters, without < or >.');
    expect(startProblem({ mode: 'kiosk', label: 'x'.repeat(101) })).toMatch(/^The participant label "x+" cannot be used: a label has at most 100 characters\./);
    const prolific = startProblem(startRequest(new URLSearchParams('?PROLIFIC_PID=ab%20c')));
    expect(prolific).toMatch(/^This study link's participant id \(PROLIFIC_PID\) "ab c" cannot be used: panel ids use letters, digits and _ \. : -\. An id has 1 to 100 characters: letters, digits and _ \. : -\./);
    expect(startProblem(startRequest(new URLSearchParams('?PROLIFIC_PID=ok&STUDY_ID=a/b')))).toContain('study id (STUDY_ID) "a/b"');
    expect(startProblem(startRequest(new URLSearchParams('?sona_id=%3F')))).toContain('participant id (sona_id) "?"');
  });
  it('in German and Arabic, says what is wrong in the page\'s language, with no English words of the check', async () => {
    const { setLanguage } = await import('./i18n.ts');
    // setLanguage sets the document's lang and dir (a stand-in document: these tests run without a DOM).
    const g = globalThis as { document?: unknown };
    g.document ??= { documentElement: {} };
    try {
      await setLanguage('de');
      const panel = startProblem(startRequest(new URLSearchParams('?PROLIFIC_PID=ab%20c')))!;
      expect(panel).toContain('sie enthält andere Zeichen als Buchstaben, Ziffern und _ . : -');
      expect(startProblem({ mode: 'kiosk', label: 'x'.repeat(101) })).toContain(': sie ist länger als 100 Zeichen.');
      expect(startProblem({ mode: 'kiosk', label: '<b>' })).toContain(': sie enthält < oder >.');
      await setLanguage('ar');
      const ar = startProblem(startRequest(new URLSearchParams('?sona_id=%3F')))!;
      expect(ar).toContain('يحتوي على رموز غير الحروف والأرقام');
      for (const text of [panel, ar]) expect(text).not.toMatch(/panel ids|letters|cannot|characters/);
    } finally {
      await setLanguage('en', { 'app.loading': 'Loading the study…' });
    }
  });
  it('is null for every valid link', () => {
    for (const search of ['?PROLIFIC_PID=abc123&STUDY_ID=st1', '?sona_id=4711', '?mode=kiosk&label=P-017', '']) expect(startProblem(startRequest(new URLSearchParams(search)))).toBeNull();
  });
});

describe('a hint belongs to the board it was given for (issue 32)', () => {
  it('goes with the next move of the participant, stays for its own reveal and a new Hint press', async () => {
    const { hintAfterMove } = await import('./study.ts');
    const hint = { row: 1, col: 2 };
    for (const move of [{ type: 'fill', row: 0, col: 0 }, { type: 'cross', row: 1, col: 2 }, { type: 'undo' }, { type: 'reset' }, { type: 'submit' }, { type: 'stroke', state: 'filled', cells: [[0, 0]] }] as const)
      expect(hintAfterMove(hint, move as never), move.type).toBeNull();
    expect(hintAfterMove(hint, { type: 'reveal', row: 1, col: 2, state: 'crossed' })).toBe(hint);
    expect(hintAfterMove(hint, { type: 'hint' })).toBe(hint);
  });
});

describe('a check or hint the server refuses', () => {
  it("is said in the page's language from the refusal's code, never with the server's English, and with no 'try again' when trying again cannot help", async () => {
    const { requestFailed } = await import('./board/requests.ts');
    const { ApiError } = await import('./api.ts');
    const { setLanguage, loadStepWords } = await import('./i18n.ts');
    const g = globalThis as { document?: unknown };
    g.document ??= { documentElement: {} };
    await loadStepWords();
    const english = 'the time for this puzzle (300 s) is over';
    const timeOver = new ApiError(409, english, { code: 'time_over' });
    const hintsOff = new ApiError(403, 'hints are turned off in this study', { code: 'hints_off' });
    const store = new ApiError(503, 'the server could not store this; please try again', { code: 'store_unavailable' });
    const gone = new ApiError(410, 'this session was withdrawn', {});
    const other = new ApiError(400, 'invalid request body', {});
    expect(requestFailed(timeOver, 'hint.failed')).toBe('The time for this puzzle is over.');
    expect(requestFailed(hintsOff, 'hint.failed')).toBe('Hints are turned off in this study.');
    expect(requestFailed(store, 'check.failed')).toBe('Could not check the puzzle right now (the server could not store this). Try again in a moment.');
    expect(requestFailed(other, 'check.failed')).toBe('Could not check the puzzle right now (the server answered with error 400). Try again in a moment.');
    expect(requestFailed(gone, 'check.failed')).toContain('this session has ended on the server');
    expect(requestFailed(new TypeError('Failed to fetch'), 'hint.failed')).toBe('Could not get a hint right now (no connection). Try again in a moment.');
    try {
      await setLanguage('de');
      expect(requestFailed(timeOver, 'hint.failed')).toBe('Die Zeit für dieses Rätsel ist abgelaufen.');
      expect(requestFailed(other, 'check.failed')).toContain('der Server antwortete mit Fehler 400');
      await setLanguage('ar');
      expect(requestFailed(timeOver, 'check.failed')).toBe('انتهى الوقت المخصص لهذا اللغز.');
      expect(requestFailed(store, 'hint.failed')).toContain('تعذّر على الخادم حفظ ذلك');
      for (const err of [timeOver, hintsOff, store, gone, other, new TypeError('Failed to fetch')]) expect(requestFailed(err, 'hint.failed')).not.toMatch(/[A-Za-z]/);
    } finally {
      await setLanguage('en', { 'app.loading': 'Loading the study…' });
    }
  });
});
