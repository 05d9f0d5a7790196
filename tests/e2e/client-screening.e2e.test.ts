// End to end: declining consent ends politely; an eligibility survey screens out by config, for good (even on reload).
// The screening runs on both stores (the decision is stored and read back); the dashboard/participant split, a matter of
// serving bundles, runs once (on SQLite).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { answerSurvey, waitForStep } from '../support/participant.ts';
import type { Phase } from '../../shared/schema/config.ts';

const tweak = (c: StudyFixture['config']) => {
  const eligibility: Phase = {
    kind: 'survey',
    id: 'eligibility',
    title: 'Before we start',
    text: '',
    items: [
      { type: 'single', id: 'adult', label: 'Are you 18 or older?', required: true, options: ['Yes', 'No'] },
      { type: 'number', id: 'age', label: 'Your age', required: true, integer: true, min: 0, max: 120 },
    ],
    eligibility: { criteria: { adult: ['Yes'] }, message: 'Sorry, this study is for adults only.' },
  };
  c.phases.splice(1, 0, eligibility);
  c.completion.screened_out_code = 'NOT-ELIGIBLE-7';
};

async function logOf(study: StudyFixture, page: Page): Promise<Record<string, any>[]> {
  const id = await page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { session_id: string }).session_id);
  await page.waitForFunction(() => document.querySelector('[data-testid="save-status"]')?.getAttribute('data-status') === 'saved');
  return study.readLog(id);
}

describe.each(STORES)('who takes part (%s)', (store) => {
  const study = studyFixture(tweak, { store });

  // Serving the right bundles, not storage: once.
  if (store === 'sqlite')
    it('keeps the experimenter dashboard apart: /dashboard starts no session, the participant page loads no dashboard code', async () => {
      const context = await study.browser.newContext();
      const page = await context.newPage();
      const starts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/sessions')) starts.push(r.url());
      });
      await page.goto(`${study.server.url}/dashboard`);
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('consent-agree').count()).toBe(0);
      expect(starts).toEqual([]);
      await page.goto(study.server.url);
      await page.getByTestId('consent-agree').waitFor();
      const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.js')));
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.some((n) => /dashboard/i.test(n))).toBe(false);
      expect(starts).toHaveLength(1);
      await context.close();
    });

  it('ends politely when consent is declined, also after a reload', async () => {
    const context = await study.browser.newContext();
    const page = await context.newPage();
    await page.goto(study.server.url);
    await page.getByTestId('consent-decline').click();
    await expect.poll(() => page.getByTestId('declined').textContent()).toContain('Thank you');
    const log = await logOf(study, page);
    expect(log.some((e) => e.type === 'consent' && e.payload.agreed === false)).toBe(true);
    // The session has ended: after a reload the page shows no pending state (issue 32): no "Offline — your work is
    // kept" badge, now or once the server has answered whatever the page tried, and it sends nothing more.
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/')) posts.push(new URL(r.url()).pathname);
    });
    await page.reload();
    await page.getByTestId('declined').waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1_500);
    const badge = page.getByTestId('save-status');
    if ((await badge.count()) > 0) expect(await badge.getAttribute('data-status')).not.toBe('offline');
    expect(await page.getByText(/Offline/).count()).toBe(0);
    expect(posts).toEqual([]);
    await context.close();
  });

  it('shows validation messages, then screens out an ineligible participant for good', async () => {
    const context = await study.browser.newContext();
    const page = await context.newPage();
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').click();
    await waitForStep(page, 'survey');
    await page.getByTestId('survey-submit').click();
    expect(await page.locator('[data-testid="item-adult"] .error').textContent()).toContain('Please answer');
    await answerSurvey(page, { adult: 'No', age: '250' });
    expect(await page.locator('[data-testid="item-age"] .error').textContent()).toContain('at most 120');
    await answerSurvey(page, { age: '17' });
    await expect.poll(() => page.getByTestId('screened-out').textContent()).toContain('adults only');
    await expect.poll(() => page.getByTestId('end-code').textContent()).toBe('NOT-ELIGIBLE-7');
    const state = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { status: string; completion_code: string });
    expect(state).toMatchObject({ status: 'screened_out', completion_code: 'NOT-ELIGIBLE-7' });
    const log = await logOf(study, page);
    expect(log.find((e) => e.type === 'step_end' && e.phase === 'eligibility')?.payload.reason).toBe('screened_out');
    expect(log.find((e) => e.type === 'survey_submit')?.payload.answers).toEqual({ adult: 'No', age: 17 });
    await page.reload();
    await page.getByTestId('screened-out').waitFor();
    expect(await page.getByTestId('end-code').textContent()).toBe('NOT-ELIGIBLE-7');
    expect(await page.getByTestId('grid').count()).toBe(0);
    await context.close();
  });

  it('keeps a survey draft across a reload and lets an eligible participant on to the tutorial', async () => {
    const context = await study.browser.newContext();
    const page = await context.newPage();
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').click();
    await waitForStep(page, 'survey');
    // A half-filled survey survives a reload (the draft is kept in the browser).
    await page.locator('[data-testid="item-adult"] input[value="Yes"]').check();
    await page.reload();
    await waitForStep(page, 'survey');
    expect(await page.locator('[data-testid="item-adult"] input[value="Yes"]').isChecked()).toBe(true);
    await answerSurvey(page, { age: '30' });
    await waitForStep(page, 'tutorial');
    await context.close();
  });
});
