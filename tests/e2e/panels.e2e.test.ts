// End to end: a Prolific participant in real Chromium finishes a short study and is sent to the panel's completion URL
// with their own code filled in, only after the server acknowledged every event and made the completion durable;
// with recruitment closed, a new visitor (and a lab kiosk) sees the config's closed page while a returning one finishes.
// On both stores (SQLite + NDJSON, PostgreSQL): completions, panel ids, recruitment and withdrawals are stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../support/server.ts';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { answerSurvey, waitForStep } from '../support/participant.ts';
import type { StudyConfig } from '../../shared/schema/config.ts';

const PASSWORD = 'panels-e2e-password';
const CODE = /^PAY-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
const CLOSED_TITLE = 'Recruitment has ended';
const CLOSED_MESSAGE = 'Thank you for your interest! We already have all the participants we need.';

/** What the panel's completion page saw when the participant arrived: the URL, the time, the session's log then. */
interface Arrival {
  url: URL;
  at: number;
  log: Record<string, any>[];
}

/** The store's suite being run: its browser, server and log reader. */
let study: StudyFixture;
let browser: Browser;
let server: RunningServer;
let panel: Server;
let panelUrl: string;
const arrivals: Arrival[] = [];
/** Set by the test before the participant finishes: the session whose log the panel page reads on arrival. */
let watchedSession = '';

beforeAll(async () => {
  // The panel: a page that notes each arrival and reads the session's log at that very moment (before it answers).
  panel = createServer(async (req, res) => {
    const at = Date.now();
    const log = watchedSession ? await study.readLog(watchedSession) : [];
    arrivals.push({ url: new URL(req.url ?? '/', panelUrl), at, log });
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Panel</title><p id="panel-done">Submission complete</p>');
  });
  await new Promise<void>((resolve) => panel.listen(0, '127.0.0.1', resolve));
  const address = panel.address();
  panelUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (panel ? panel.close(() => resolve()) : resolve()));
});

const tweak = (config: StudyConfig) => {
  // A short study: consent, one puzzle (skippable at once) and its rating, the end.
  const keep = config.phases.filter((p) => p.kind === 'consent' || p.kind === 'puzzles' || p.kind === 'complete');
  for (const p of keep) if (p.kind === 'puzzles') Object.assign(p, { count: 1, skip_min_seconds: 0 });
  config.phases = keep;
  config.completion = {
    code_mode: 'per_participant',
    code_prefix: 'PAY',
    redirect_url: `${panelUrl}/submissions/complete?cc={code}&pid={panel_id}`,
  } as StudyConfig['completion'];
  config.recruitment = { open: true, closed_title: CLOSED_TITLE, closed_message: CLOSED_MESSAGE };
};

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const login = await fetch(`${server.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: PASSWORD }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function sessionIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { session_id: string }).session_id);
}

/** Consent, skip the one puzzle, rate it: the participant then stands on the complete step. */
async function playToTheEnd(page: Page): Promise<void> {
  await page.getByTestId('consent-agree').click();
  await waitForStep(page, 'puzzle');
  await page.getByTestId('skip').click();
  await page.getByTestId('confirm-yes').click();
  await waitForStep(page, 'rating');
  await answerSurvey(page, { difficulty: '3', guessing: 'Rarely' });
}

describe.each(STORES)('panels (%s)', (store) => {
  const fixture = studyFixture(tweak, { store, env: { NONOLAB_ADMIN_PASSWORD: PASSWORD } });
  beforeAll(() => {
    study = fixture;
    browser = fixture.browser;
    server = fixture.server;
    arrivals.length = 0;
    watchedSession = '';
  });

  describe('a panel participant', () => {
    it('is redirected to the completion URL with their own code, only after the final acknowledgement', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      // Every answer the page gets from the server, with the time it got it: the last acknowledgement and the code are
      // held back a little, so a redirect that did not wait for them would arrive first.
      const acks: { at: number; acked: number }[] = [];
      let completion: { at: number; code: string; redirect_url: string } | null = null;
      await page.route('**/api/session/events', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { acked_seq?: number };
        await new Promise((r) => setTimeout(r, 300));
        // The time the answer is released to the page, taken before fulfill: once fulfilled, the page may redirect and
        // the panel site record its arrival before this handler runs again (seen under a CPU hog).
        if (typeof body.acked_seq === 'number') acks.push({ at: Date.now(), acked: body.acked_seq });
        await route.fulfill({ response: res, json: body });
      });
      await page.route('**/api/session/complete', async (route) => {
        await new Promise((r) => setTimeout(r, 1_000));
        const res = await route.fetch();
        const body = (await res.json()) as { code: string; redirect_url: string };
        if (res.status() === 200) completion = { at: Date.now(), ...body }; // (before fulfill, as above)
        await route.fulfill({ response: res, json: body });
      });

      await page.goto(`${server.url}/?PROLIFIC_PID=pid5e2e0123456789abcdef&STUDY_ID=study77&SESSION_ID=sess88`);
      await page.getByTestId('consent-agree').waitFor();
      watchedSession = await sessionIdOf(page);
      await playToTheEnd(page);
      await page.waitForURL(`${panelUrl}/**`, { timeout: 30_000 });
      await page.locator('#panel-done').waitFor();

      expect(arrivals).toHaveLength(1);
      const arrival = arrivals[0];
      const done = completion as { at: number; code: string; redirect_url: string } | null;
      expect(done).not.toBeNull();
      // The code is the session's own, unguessable, filled into the URL with the panel id.
      expect(arrival.url.pathname).toBe('/submissions/complete');
      expect(arrival.url.searchParams.get('cc')).toBe(done!.code);
      expect(arrival.url.searchParams.get('cc')).toMatch(CODE);
      expect(arrival.url.searchParams.get('pid')).toBe('pid5e2e0123456789abcdef');
      expect(done!.redirect_url).toBe(arrival.url.toString());
      // It came after the last acknowledgement and after the code's answer.
      expect(acks.length).toBeGreaterThan(0);
      expect(arrival.at).toBeGreaterThanOrEqual(done!.at);
      for (const a of acks) expect(arrival.at).toBeGreaterThanOrEqual(a.at);
      // At the moment of arrival the server's log already held every acknowledged event and the completion with this code.
      const lastAcked = Math.max(...acks.map((a) => a.acked));
      const clientSeqs = arrival.log.filter((r) => r.origin === 'client').map((r) => r.seq);
      expect(Math.max(...clientSeqs)).toBeGreaterThanOrEqual(lastAcked);
      expect(clientSeqs).toEqual(clientSeqs.map((_, i) => i + 1));
      const closing = arrival.log.filter((r) => r.type === 'session_complete');
      expect(closing).toHaveLength(1);
      expect(closing[0].payload.code).toBe(done!.code);
      expect(arrival.log.some((r) => r.type === 'rating')).toBe(true);
      // The panel id is nowhere in the log; the experimenter finds the session from it, with the same code.
      expect(JSON.stringify(await study.readLog(watchedSession))).not.toContain('pid5e2e0123456789abcdef');
      const found = await admin('GET', '/lookup?q=pid5e2e0123456789abcdef');
      expect(found.json.matches).toEqual([expect.objectContaining({ session_id: watchedSession, status: 'complete', completion_code: done!.code, matched_by: 'panel_id' })]);
      await context.close();
    });
  });

  describe('closed recruitment', () => {
    it('shows a new visitor and a lab kiosk the closed page, while a participant who started goes on', async () => {
      const returning = await browser.newContext();
      const before = await returning.newPage();
      await before.goto(server.url);
      await before.getByTestId('consent-agree').click();
      await waitForStep(before, 'puzzle');

      expect((await admin('POST', '/recruitment', { open: false })).json.accepting).toBe(false);
      const sessionsBefore = (await admin('GET', '/sessions')).json.sessions.length;

      const visitor = await browser.newContext();
      const page = await visitor.newPage();
      await page.goto(server.url);
      await page.getByTestId('not-recruiting').waitFor();
      expect(await page.getByTestId('not-recruiting').textContent()).toBe(CLOSED_MESSAGE);
      expect(await page.locator('h1, h2').first().textContent()).toContain(CLOSED_TITLE);
      expect(await page.getByTestId('consent-agree').count()).toBe(0);

      const kiosk = await visitor.newPage();
      await kiosk.goto(`${server.url}/?mode=kiosk`);
      await kiosk.getByTestId('not-recruiting').waitFor();
      expect(await kiosk.getByTestId('kiosk-label').count()).toBe(0);
      expect((await admin('GET', '/sessions')).json.sessions.length).toBe(sessionsBefore);

      // The participant who started reloads and finishes (code and all).
      await before.reload();
      await waitForStep(before, 'puzzle');
      await before.getByTestId('skip').click();
      await before.getByTestId('confirm-yes').click();
      await waitForStep(before, 'rating');
      await answerSurvey(before, { difficulty: '2', guessing: 'Never' });
      await before.waitForURL(`${panelUrl}/**`, { timeout: 30_000 });
      expect(new URL(before.url()).searchParams.get('cc')).toMatch(CODE);

      // Open again: the visitor gets the study.
      expect((await admin('POST', '/recruitment', { open: true })).json.accepting).toBe(true);
      await page.reload();
      await page.getByTestId('consent-agree').waitFor();
      await returning.close();
      await visitor.close();
    });
  });

  describe('the experimenter', () => {
    it('finds a participant by panel id and marks and withdraws them right there; opens and closes recruitment and reads the funnel', async () => {
      // A participant to find: played over the browser to the end (redirected to the panel).
      const participant = await browser.newContext();
      const p = await participant.newPage();
      await p.goto(`${server.url}/?PROLIFIC_PID=findme42&STUDY_ID=study77`);
      await p.getByTestId('consent-agree').waitFor();
      const sessionId = await sessionIdOf(p);
      await playToTheEnd(p);
      await p.waitForURL(`${panelUrl}/**`, { timeout: 30_000 });
      const code = new URL(p.url()).searchParams.get('cc')!;
      await participant.close();

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/dashboard`);
      await page.getByTestId('login-password').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('nav-find').click();
      await page.getByTestId('find-input').fill('findme42');
      await page.getByTestId('find-submit').click();
      const match = page.getByTestId(`match-${sessionId}`);
      await match.waitFor();
      expect(await match.getByTestId('match-code').textContent()).toBe(code);
      expect(await match.getByTestId('match-panel').textContent()).toContain('findme42');
      // The pasted code finds the same session.
      await page.getByTestId('find-input').fill(code.toLowerCase());
      await page.getByTestId('find-submit').click();
      await page.getByTestId(`match-${sessionId}`).waitFor();
      await page.getByTestId('find-input').fill('findme42');
      await page.getByTestId('find-submit').click();
      await match.waitFor();
      await match.getByTestId('flag-select').selectOption('excluded');
      await expect.poll(async () => (await admin('GET', '/lookup?q=findme42')).json.matches[0]?.flag).toBe('excluded');
      await expect.poll(() => match.locator('.flag').textContent()).toBe('excluded');
      expect((await study.tracesOf(sessionId)).length).toBeGreaterThan(0);
      await match.getByTestId('withdraw').click();
      await match.getByTestId('withdraw-yes').click();
      await page.getByTestId('find-none').waitFor();
      expect((await admin('GET', '/lookup?q=findme42')).json.matches).toEqual([]);
      expect(await study.tracesOf(sessionId)).toEqual([]);
      expect(await study.tracesOf('findme42')).toEqual([]);

      await page.getByTestId('nav-recruitment').click();
      await page.getByTestId('funnel').waitFor();
      expect(Number(await page.getByTestId('funnel-reached-0').textContent())).toBeGreaterThan(0);
      await page.getByTestId('recruitment-close').click();
      await expect.poll(() => page.getByTestId('recruitment-state').textContent()).toContain('Closed');
      expect((await fetch(`${server.url}/api/recruitment`).then((r) => r.json())).accepting).toBe(false);
      await page.getByTestId('recruitment-open').click();
      await expect.poll(() => page.getByTestId('recruitment-state').textContent()).toContain('Open');
      await page.getByTestId('recruitment-target').fill('500');
      await page.getByTestId('recruitment-target-save').click();
      await expect.poll(async () => (await admin('GET', '/recruitment')).json.target_completed).toBe(500);
      await context.close();
    });
  });
});
