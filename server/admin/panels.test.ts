// Panels, recruitment and exports over real HTTP: per-participant codes, panel-id lookup and withdrawal, the
// recruitment gate and target, the drop-out funnel, and every CSV export read back by a strict CSV reader.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { Participant, event, startTestServer, type TestServer } from '../../tests/support/testServer.ts';
import { Bot, HttpClient } from '../../tests/support/bots.ts';
import { defaultConfig, writeConfig } from '../../tests/support/server.ts';
import { strictCsv } from '../../tests/support/strictCsv.ts';
import { participantCodebook } from '../../shared/signals/participantTable.ts';
import { FUNNEL_COLUMNS } from '../../shared/study/funnel.ts';
import { EVENT_COLUMNS } from '../exports.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';
import { STORES, type StoreKind } from '../../tests/support/postgres.ts';

const PASSWORD = 'panels and recruitment';
process.env.NONOLAB_ADMIN_PASSWORD = PASSWORD;
const CODE = /^SONA-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

let server: TestServer | null = null;
let http: HttpClient | null = null;
afterEach(async () => {
  http?.close();
  http = null;
  await server?.close();
  server = null;
});

/** The store the suite runs on now (set by each round of describe.each below). */
let store: StoreKind = 'sqlite';

async function serve(tweak: (c: StudyConfig) => void = () => {}): Promise<{ server: TestServer; config: StudyConfig; admin: Participant }> {
  const config = defaultConfig();
  tweak(config);
  server = await startTestServer({ configPath: writeConfig(config), store });
  http = new HttpClient(server.url);
  const admin = new Participant(server.url);
  expect((await admin.call('POST', '/api/admin/login', { password: PASSWORD })).status).toBe(200);
  return { server, config, admin };
}

/** A bot that plays the whole study (optionally arriving from a panel); returns it once its code is in hand. */
async function playWhole(config: StudyConfig, seed: number, startBody: unknown = {}): Promise<Bot> {
  const bot = new Bot({ http: http!, config, seed, startBody });
  await bot.play();
  return bot;
}

async function download(admin: Participant, name: string, query = ''): Promise<{ status: number; text: string; type: string | null; buffer: Buffer }> {
  const res = await fetch(`${admin.base}/api/admin/exports/${name}${query}`, { headers: { cookie: admin.cookie } });
  const buffer = Buffer.from(await res.arrayBuffer());
  return { status: res.status, text: buffer.toString('utf8'), type: res.headers.get('content-type'), buffer };
}

describe.each(STORES)('on %s', (kind) => {
beforeAll(() => {
  store = kind;
});

describe('per-participant completion codes', () => {
  it('gives each completed session its own unguessable code, stored with it, in the redirect and mapped back by lookup and export', async () => {
    const { config, admin } = await serve((c) => {
      c.completion = { code_mode: 'per_participant', code_prefix: 'SONA', redirect_url: 'https://sona.example/credit?id=7&survey_code={panel_id}&code={code}' } as StudyConfig['completion'];
    });
    const sona = await playWhole(config, 1, { mode: 'panel', panel: { provider: 'sona', participant_id: '40123' } });
    const general = await playWhole(config, 2);
    expect(sona.completionCode).toMatch(CODE);
    expect(general.completionCode).toMatch(CODE);
    expect(sona.completionCode).not.toBe(general.completionCode);

    // Asking again gives the same code (and the redirect carries it and the panel id); resume shows it too.
    const again = await http!.call('POST', '/api/session/complete', { last_seq: sona.events.length }, sona.cookie);
    expect(again.json).toEqual({ code: sona.completionCode, redirect_url: `https://sona.example/credit?id=7&survey_code=40123&code=${sona.completionCode}` });
    expect((await http!.call('GET', '/api/session', undefined, sona.cookie)).json.completion_code).toBe(sona.completionCode);

    // The code pasted back (lower case, with spaces) finds its session.
    const pasted = ` ${sona.completionCode!.toLowerCase()} `;
    const found = await admin.call('GET', `/api/admin/lookup?q=${encodeURIComponent(pasted)}`);
    expect(found.status).toBe(200);
    expect(found.json.matches).toHaveLength(1);
    expect(found.json.matches[0]).toMatchObject({ matched_by: 'completion_code', session_id: sona.sessionId, status: 'complete', completion_code: sona.completionCode });

    const codes = strictCsv((await download(admin, 'codes')).text, 'completion-codes.csv').rows;
    expect(codes.map((r) => [r.completion_code, r.session_id]).sort()).toEqual(
      [
        [sona.completionCode, sona.sessionId],
        [general.completionCode, general.sessionId],
      ].sort(),
    );
    // participants.csv carries each session's own code.
    const participants = strictCsv((await download(admin, 'participants')).text).rows;
    expect(participants.find((p) => p.session_id === sona.sessionId)?.completion_code).toBe(sona.completionCode);
  });

  it('gives racing completion requests one and the same code', async () => {
    const { config } = await serve((c) => {
      c.completion = { code_mode: 'per_participant', code_prefix: 'SONA' } as StudyConfig['completion'];
    });
    // The bot walks every step but the last (its copy of the config has no complete phase), then asks five times at once.
    const bot = new Bot({ http: http!, config: { ...config, phases: config.phases.filter((p) => p.kind !== 'complete') }, seed: 11 });
    await bot.play();
    const answers = await Promise.all(Array.from({ length: 5 }, () => http!.call('POST', '/api/session/complete', { last_seq: bot.events.length }, bot.cookie)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const codes = new Set(answers.map((a) => a.json.code));
    expect(codes.size).toBe(1);
    const [code] = codes;
    expect(code).toMatch(CODE);
    expect((await server!.nonolab.store.completionOf(bot.sessionId))?.code).toBe(code);
    const log = (await server!.nonolab.log.read(bot.sessionId)) as { type: string; payload?: { code?: string } }[];
    expect(log.filter((r) => r.type === 'session_complete').map((r) => r.payload?.code)).toEqual([code]);
  });

  it('refuses a config that has neither a study-wide code nor the per-participant mode', async () => {
    const config = defaultConfig();
    delete (config.completion as { code?: string }).code;
    await expect(startTestServer({ configPath: writeConfig(config), store })).rejects.toThrow(/completion\.code/);
  });
});

describe('panel ids', () => {
  it('stay out of study exports, are found by lookup with the session to act on, and leave with a withdrawal', async () => {
    const { config, admin } = await serve();
    const pid = 'PROLIFICpid0123456789abcd';
    const bot = await playWhole(config, 3, { mode: 'panel', panel: { provider: 'prolific', participant_id: pid, study_id: 'STUDYx1', session_id: 'SESSx9' } });
    const other = await playWhole(config, 4);

    const found = await admin.call('GET', `/api/admin/lookup?q=${pid}`);
    expect(found.json.matches).toEqual([
      expect.objectContaining({
        matched_by: 'panel_id',
        session_id: bot.sessionId,
        status: 'complete',
        mode: 'panel',
        flag: null,
        completion_code: config.completion.code,
        panel: { provider: 'prolific', participant_id: pid, study_id: 'STUDYx1', session_id: 'SESSx9' },
      }),
    ]);

    const panelIds = await download(admin, 'panel-ids');
    expect(panelIds.status).toBe(200);
    const rows = strictCsv(panelIds.text, 'panel-ids.csv');
    expect(rows.header).toEqual(['provider', 'panel_id', 'panel_study_id', 'panel_session_id', 'session_id', 'status', 'mark', 'completion_code', 'started_at', 'last_activity_at', 'completed_at']);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ provider: 'prolific', panel_id: pid, session_id: bot.sessionId, status: 'complete', completion_code: config.completion.code });
    expect(Date.parse(rows.rows[0].completed_at)).toBeGreaterThanOrEqual(Date.parse(rows.rows[0].started_at));

    // No study export holds the panel id.
    for (const name of ['events', 'attempts', 'participants', 'codebook', 'funnel', 'codes']) expect((await download(admin, name)).text, name).not.toContain(pid);
    for (const name of ['raw', 'psychds']) {
      const zip = await JSZip.loadAsync((await download(admin, name)).buffer);
      for (const file of Object.values(zip.files)) expect(await file.async('string'), `${name}/${file.name}`).not.toContain(pid);
    }

    // Marks right there: the lookup's session takes a flag, and the lookup shows it.
    expect((await admin.call('POST', `/api/admin/sessions/${bot.sessionId}/flag`, { flag: 'excluded' })).status).toBe(200);
    expect((await admin.call('GET', `/api/admin/lookup?q=${pid}`)).json.matches[0].flag).toBe('excluded');
    expect(strictCsv((await download(admin, 'panel-ids', '?include_flagged=1')).text).rows[0].mark).toBe('excluded');

    // "Delete my data, my ID is X": one withdrawal removes the session and its panel row.
    expect((await admin.call('POST', `/api/admin/sessions/${bot.sessionId}/withdraw`, { confirm: bot.sessionId })).status).toBe(200);
    expect((await admin.call('GET', `/api/admin/lookup?q=${pid}`)).json.matches).toEqual([]);
    expect(strictCsv((await download(admin, 'panel-ids', '?include_flagged=1')).text).rows).toEqual([]);
    expect(await server!.nonolab.store.panelsByParticipant(pid)).toEqual([]);
    expect((await admin.call('GET', `/api/admin/lookup?q=${other.sessionId}`)).json.matches[0].matched_by).toBe('session_id');
  });

  it('answers 400 to an empty lookup and 401 without a login', async () => {
    const { admin } = await serve();
    expect((await admin.call('GET', '/api/admin/lookup?q=')).status).toBe(400);
    expect((await new Participant(admin.base).call('GET', '/api/admin/lookup?q=x')).status).toBe(401);
    expect((await fetch(`${admin.base}/api/admin/exports/panel-ids`)).status).toBe(401);
  });
});

describe('recruitment', () => {
  it('turns new visitors away once closed, lets returning participants finish, and opens again', async () => {
    const { config, admin } = await serve((c) => {
      c.recruitment = { open: true, closed_title: 'Closed', closed_message: 'We have all the participants we need. Thank you!' };
    });
    expect((await admin.call('GET', '/api/admin/recruitment')).json).toMatchObject({ open: true, accepting: true, reason: 'open', set_by: 'config', completed: 0, target_completed: null });
    const returning = new Bot({ http: http!, config, seed: 5 });
    await returning.start();
    const panel = new Participant(admin.base);
    const panelStart = await panel.call('POST', '/api/sessions', { mode: 'panel', panel: { provider: 'prolific', participant_id: 'returner1' } });
    expect(panelStart.status).toBe(201);

    const closed = await admin.call('POST', '/api/admin/recruitment', { open: false });
    expect(closed.json).toMatchObject({ open: false, accepting: false, reason: 'closed', set_by: 'dashboard' });
    const refused = await new Participant(admin.base).call('POST', '/api/sessions', {});
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'We have all the participants we need. Thank you!', issues: ['recruitment: closed'] });
    expect(await server!.nonolab.store.sessions()).toHaveLength(2); // nothing leased for the refused visitor

    // The panel participant comes back from another browser: same session. The started one finishes.
    const back = await new Participant(admin.base).call('POST', '/api/sessions', { mode: 'panel', panel: { provider: 'prolific', participant_id: 'returner1' } });
    expect(back.status).toBe(201);
    expect(back.json.session_id).toBe(panelStart.json.session_id);
    await returning.play();
    expect(returning.completionCode).toBe(config.completion.code);

    expect((await admin.call('POST', '/api/admin/recruitment', { open: true })).json.accepting).toBe(true);
    expect((await new Participant(admin.base).call('POST', '/api/sessions', {})).status).toBe(201);
    expect((await admin.call('POST', '/api/admin/recruitment', {})).status).toBe(400);
    expect((await admin.call('POST', '/api/admin/recruitment', { open: 'yes' })).status).toBe(400);
  });

  it('closes itself when the target of completed participants is reached; flagged sessions do not count', async () => {
    const { config, admin } = await serve((c) => {
      c.recruitment = { open: true, target_completed: 1, closed_title: 'Full', closed_message: 'The study is full.' };
    });
    const pilot = await playWhole(config, 6);
    expect((await admin.call('GET', '/api/admin/recruitment')).json).toMatchObject({ completed: 1, target_reached: true, accepting: false, reason: 'target_reached' });
    const refused = await new Participant(admin.base).call('POST', '/api/sessions', {});
    expect(refused.status).toBe(403);
    expect(refused.json.issues).toEqual(['recruitment: target_reached']);
    await admin.call('POST', `/api/admin/sessions/${pilot.sessionId}/flag`, { flag: 'pilot' });
    expect((await admin.call('GET', '/api/admin/recruitment')).json).toMatchObject({ completed: 0, accepting: true });
    await playWhole(config, 7);
    expect((await admin.call('POST', '/api/admin/recruitment', { target_completed: 3 })).json).toMatchObject({ completed: 1, target_completed: 3, accepting: true });
    expect((await admin.call('POST', '/api/admin/recruitment', { target_completed: null })).json).toMatchObject({ target_completed: null, accepting: true });
  });
});

describe('drop-out funnel', () => {
  it('counts who reached each step, where they stopped, the decliners and the median time per step; the CSV is the same table', async () => {
    const { config, admin } = await serve();
    const done = await playWhole(config, 8);
    // A decliner, a participant who stops on the warmup (ended by hand), one still on the tutorial.
    const decliner = new Participant(admin.base);
    const d = (await decliner.call('POST', '/api/sessions', {})).json.session_id;
    await decliner.call('POST', '/api/session/events', {
      events: [
        event(d, 1, { type: 'step_start', payload: { kind: 'consent' } }),
        event(d, 2, { type: 'consent', payload: { agreed: false } }),
        event(d, 3, { type: 'step_end', payload: { kind: 'consent', reason: 'declined' } }),
      ],
    });
    const leaver = new Participant(admin.base);
    const l = (await leaver.call('POST', '/api/sessions', {})).json.session_id;
    const walk = (id: string, upTo: number) => {
      const steps = [
        { step: 0, phase: 'consent', kind: 'consent', puzzle_id: null },
        { step: 1, phase: 'tutorial', kind: 'tutorial', puzzle_id: 'tutorial' },
        { step: 2, phase: 'warmup', kind: 'warmup', puzzle_id: 'warmup' },
      ].slice(0, upTo + 1);
      let seq = 0;
      const events = [];
      for (const [i, s] of steps.entries()) {
        events.push(event(id, ++seq, { step: s.step, phase: s.phase, puzzle_id: s.puzzle_id, type: 'step_start', payload: { kind: s.kind } }));
        if (s.kind === 'consent') events.push(event(id, ++seq, { type: 'consent', payload: { agreed: true } }));
        if (i < upTo) events.push(event(id, ++seq, { step: s.step, phase: s.phase, puzzle_id: s.puzzle_id, type: 'step_end', payload: { kind: s.kind, reason: 'done' } }));
      }
      return events;
    };
    expect((await leaver.call('POST', '/api/session/events', { events: walk(l, 2) })).status).toBe(200);
    expect((await admin.call('POST', `/api/admin/sessions/${l}/end`, {})).status).toBe(200);
    const stayer = new Participant(admin.base);
    const s = (await stayer.call('POST', '/api/sessions', {})).json.session_id;
    expect((await stayer.call('POST', '/api/session/events', { events: walk(s, 1) })).status).toBe(200);

    const funnel = (await admin.call('GET', '/api/admin/funnel')).json;
    expect(funnel).toMatchObject({ sessions: 4, complete: 1, active: 1, abandoned: 1, declined: 1, screened_out: 0 });
    const steps = funnel.steps as Record<string, any>[];
    expect(steps.map((r) => r.kind)).toEqual(['consent', 'tutorial', 'warmup', 'survey', 'puzzle', 'rating', 'puzzle', 'rating', 'puzzle', 'rating', 'post_survey', 'complete']);
    expect(steps.map((r) => r.reached)).toEqual([4, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(steps[0]).toMatchObject({ declined_here: 1, left_here: 0, here_now: 0 });
    expect(steps[1]).toMatchObject({ here_now: 1 });
    expect(steps[2]).toMatchObject({ left_here: 1 });
    expect(steps[0].timed).toBe(4); // everyone ended consent: the completer, the leaver, the stayer and the decliner
    expect(steps.every((r) => r.median_time_s === null || r.median_time_s >= 0)).toBe(true);
    expect(steps[11].reached).toBe(1);

    const csv = strictCsv((await download(admin, 'funnel')).text, 'funnel.csv');
    expect(csv.header).toEqual(FUNNEL_COLUMNS);
    expect(csv.rows.map((r) => Number(r.reached))).toEqual(steps.map((r) => r.reached));
    expect(csv.rows.map((r) => r.median_time_s)).toEqual(steps.map((r) => (r.median_time_s === null ? '' : String(r.median_time_s))));
    expect(done.completionCode).toBe(config.completion.code);
  });
});

describe('every CSV export', () => {
  it('reads back with one header, no empty rows and equal widths, with a codebook beside the participant table in each format', async () => {
    const { config, admin } = await serve((c) => {
      for (const p of c.phases) if (p.kind === 'post_survey') p.items.push({ type: 'text', id: 'notes', label: 'Notes, with "quotes", commas', required: false, multiline: true, max_length: 5000 });
    });
    await playWhole(config, 9);
    await playWhole(config, 10, { mode: 'panel', panel: { provider: 'sona', participant_id: '77' } });
    const list = (await admin.call('GET', '/api/admin/exports')).json.exports as { id: string; content_type: string }[];
    const csvs = list.filter((x) => x.content_type.startsWith('text/csv')).map((x) => x.id);
    expect(csvs.sort()).toEqual(['attempts', 'codebook', 'codes', 'events', 'funnel', 'panel-ids', 'participants', 'trajectories'].sort());
    for (const name of csvs) {
      const { status, text } = await download(admin, name);
      expect(status, name).toBe(200);
      expect(text, name).not.toMatch(/^[^\n]*\n\n/); // no blank line after the header
      const { header, rows } = strictCsv(text, name);
      expect(header.length, name).toBeGreaterThan(1);
      if (name !== 'panel-ids') expect(rows.length, name).toBeGreaterThan(0);
    }
    // Free text with newlines, quotes and commas survives; a formula does not run.
    const participants = strictCsv((await download(admin, 'participants')).text).rows;
    expect(participants).toHaveLength(2);
    for (const p of participants) for (const id of ['academic_program', 'strategies', 'notes']) expect(p[id], id).toBe('bot answer: =HYPERLINK("x") <b>ok</b> é');

    const codebook = strictCsv((await download(admin, 'codebook')).text, 'codebook.csv');
    expect(codebook.header).toEqual(['column', 'item_id', 'phase', 'question', 'type', 'options', 'scale']);
    expect(codebook.rows.map((r) => r.column)).toEqual(participantCodebook(config).map((c) => c.column));
    const skill = codebook.rows.find((r) => r.column === 'nonogram_skill')!;
    expect(skill).toMatchObject({ item_id: 'nonogram_skill', phase: 'pre_survey', question: 'How skilled are you at Nonograms?', type: 'scale', scale: 'integer 1 (Beginner) to 10 (Expert)' });
    expect(codebook.rows.find((r) => r.column === 'nonogram_frequency')!.options).toBe(
      'Never | Rarely (a few times a year) | Sometimes (about monthly) | Often (about weekly) | Very often (daily)',
    );
    expect(codebook.rows.find((r) => r.column === 'notes')!.question).toBe('Notes, with "quotes", commas');

    const raw = await JSZip.loadAsync((await download(admin, 'raw')).buffer);
    expect(await raw.file('codebook.csv')!.async('string')).toBe((await download(admin, 'codebook')).text);
    const psych = await JSZip.loadAsync((await download(admin, 'psychds')).buffer);
    expect(await psych.file('codebook.csv')!.async('string')).toBe((await download(admin, 'codebook')).text);
    const table = Object.keys(psych.files).find((f) => /^data\/study-[A-Za-z0-9]+_table-participants_data\.csv$/.test(f))!;
    expect(strictCsv(await psych.file(table)!.async('string')).rows).toHaveLength(2);
    const description = JSON.parse(await psych.file('dataset_description.json')!.async('string'));
    const variables = new Map((description.variableMeasured as { name: string; description: string }[]).map((v) => [v.name, v.description]));
    for (const c of [...Object.keys(EVENT_COLUMNS), ...participantCodebook(config).map((x) => x.column)]) expect(variables.get(c), c).toBeTruthy();
    expect(variables.get('nonogram_frequency')).toContain('How often do you play Nonograms?');
    expect(variables.get('nonogram_frequency')).toContain('Options: Never | Rarely');
    expect(variables.get('nonogram_skill')).toContain('1 (Beginner) to 10 (Expert)');
    for (const f of Object.keys(psych.files).filter((f) => f.endsWith('.csv'))) strictCsv(await psych.file(f)!.async('string'), f);
  });
});
});
