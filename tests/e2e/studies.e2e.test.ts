// End to end: a server holding two studies, in real Chromium. A participant of the second study takes part at
// /s/second/ (the page finds its study's API there) while the first study's page at / is untouched; the dashboard logs
// in by name, picks the study, and shows each study's own sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { SECOND_STUDY, startServer, type RunningServer } from '../support/server.ts';
import { Participant } from '../support/testServer.ts';

const PASSWORD = 'two-studies-e2e-password';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { NONOLAB_ADMIN_PASSWORD: PASSWORD } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('two studies on one server, in Chromium', () => {
  it("a participant of the second study starts there, in that study's store only", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/s/${SECOND_STUDY}/`);
    await page.getByTestId('consent-agree').waitFor();
    await page.getByTestId('consent-agree').click();
    const state = await page.evaluate(async (slug) => (await (await fetch(`/s/${slug}/api/session`)).json()) as { session_id: string; study: { id: string } }, SECOND_STUDY);
    expect(state.study.id).toMatch(/-second$/);
    // No session of the first study in this browser.
    expect(await page.evaluate(async () => (await (await fetch('/api/session/current')).json()) as unknown)).toEqual({ session: null });
    const admin = new Participant(server.url);
    expect((await admin.call('POST', '/api/admin/login', { name: 'admin', password: PASSWORD })).status).toBe(200);
    const second = (await admin.call('GET', `/api/admin/studies/${SECOND_STUDY}/sessions`)).json.sessions.map((s: { session_id: string }) => s.session_id);
    const first = (await admin.call('GET', '/api/admin/sessions')).json.sessions.map((s: { session_id: string }) => s.session_id);
    expect(second).toEqual([state.session_id]);
    expect(first).not.toContain(state.session_id);
    await context.close();
  });

  it('the dashboard logs in by name, lists both studies and opens the second', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('login-name').fill('admin');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    const picker = page.getByTestId('study-picker');
    await picker.waitFor();
    expect(await picker.locator('option').count()).toBe(2);
    await page.getByTestId('nav-studies').click();
    await page.getByTestId(`study-${SECOND_STUDY}`).waitFor();
    expect(await page.getByTestId(`study-${SECOND_STUDY}`).textContent()).toContain(`/s/${SECOND_STUDY}/`);
    await picker.selectOption(SECOND_STUDY);
    await page.waitForURL(/\/dashboard\?study=second/);
    await page.getByTestId('nav-live').click();
    await expect.poll(async () => (await page.locator('h1').textContent()) ?? '').toContain('(second study)');
    await context.close();
  });
});
