// The client's outbox under a bad network: through a whole session in real Chromium, event requests are dropped
// before the server, dropped after it (the server stored and acknowledged, the browser never heard), and throttled,
// at random; the log must hold every event the browser made exactly once, in order, as the browser sent it. On both
// stores: the NDJSON file (SQLite's store) and PostgreSQL's rows (a retry hits the primary key, never a second row).
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { answerSurvey, solveBoard, waitForStep, type Played } from '../support/participant.ts';
import { createRng } from '../../shared/random.ts';

const tweak = (c: StudyFixture['config']) => {
  // A whole but short session: consent, a warmup that ends by its cap, two puzzles with their ratings, completion.
  c.phases = c.phases.filter((p) => ['consent', 'warmup', 'puzzles', 'complete'].includes(p.kind));
  for (const phase of c.phases) {
    if (phase.kind === 'warmup') phase.cap_seconds = 4;
    if (phase.kind === 'puzzles') {
      phase.count = 2;
      phase.skip_min_seconds = 0;
    }
  }
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe.each(STORES)('the outbox on a bad network (%s)', (store) => {
  const study = studyFixture(tweak, { store });

  it('delivers every event exactly once through random drops, lost answers and throttling', async () => {
    const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const rng = createRng(20261130);
    const tally = { dropped: 0, lostAnswer: 0, throttled: 0, passed: 0 };
    /** Every event body the study.browser tried to send, by seq (retries must send the same event again). */
    const sent = new Map<number, string>();
    let conflicting = 0;
    let resent = 0;

    await page.route('**/api/session/events', async (route: Route) => {
      const body = route.request().postDataJSON() as { events: { seq: number }[] };
      for (const e of body.events) {
        const text = JSON.stringify(e);
        const before = sent.get(e.seq);
        if (before === undefined) sent.set(e.seq, text);
        else if (before !== text) conflicting++;
        else resent++;
      }
      const roll = rng.int(100);
      if (roll < 20) {
        tally.dropped++;
        await route.abort('failed');
      } else if (roll < 40) {
        // The study.server takes the batch and acknowledges it; the answer is lost on the way back.
        tally.lostAnswer++;
        await route.fetch();
        await route.abort('connectionreset');
      } else if (roll < 60) {
        tally.throttled++;
        await sleep(100 + rng.int(900));
        await route.continue();
      } else {
        tally.passed++;
        await route.continue();
      }
    });
    // Other API calls (check, complete) are slowed down but arrive.
    await page.route(/\/api\/session\/(check|complete)$/, async (route: Route) => {
      await sleep(rng.int(600));
      await route.continue();
    });

    const played: Played = { moves: [] };
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').click();
    await waitForStep(page, 'warmup');
    for (const c of [0, 1, 2, 3]) {
      await page.getByTestId(`cell-5-${c}`).click();
      played.moves.push('fill');
    }
    await waitForStep(page, 'puzzle'); // the cap moves on by itself

    const state = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; sequence: string[] });
    for (let position = 1; position <= 2; position++) {
      await waitForStep(page, 'puzzle');
      const solution = study.solutionOf(state.sequence[position - 1]);
      await solveBoard(page, solution, played);
      await page.getByTestId('submit').click();
      played.moves.push('submit');
      await waitForStep(page, 'rating', 60_000);
      await answerSurvey(page, { difficulty: String(position + 1), guessing: 'Rarely' });
    }
    await waitForStep(page, 'complete', 60_000);
    await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 90_000 }).toBe(study.config.completion.code);
    // While the page is open, the outbox gets every event it ever sent to the study.server (retrying through the chaos);
    // events the page makes while it closes (visibility, focus) may never arrive, so the count is taken here.
    const held = async () => (await study.readLog(state.session_id)).filter((e) => e.origin === 'client').length;
    await expect.poll(async () => (await held()) - sent.size, { timeout: 60_000 }).toBe(0);
    const sentBeforeCode = sent.size;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();

    const log = await study.readLog(state.session_id);
    const client = log.filter((e) => e.origin === 'client');
    // Exactly once and in order: 1..N without gap or repeat, and N is every seq the study.browser ever sent.
    expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
    expect(Math.max(...sent.keys())).toBe(sent.size);
    expect(client.length).toBeGreaterThanOrEqual(sentBeforeCode);
    // Each logged event is the event the study.browser sent (retries never changed an event). Events of the closing page,
    // sent after the chaos was switched off, went past the recorder: they may only be page events, never moves.
    expect(conflicting).toBe(0);
    for (const e of client) {
      const { origin: _o, t_server: _t, config_hash: _c, app_version: _a, ...fromClient } = e;
      if (e.seq <= sentBeforeCode) expect(JSON.parse(sent.get(e.seq)!)).toEqual(fromClient);
      else expect(e.type).not.toBe('move');
    }
    expect(client.filter((e) => e.type === 'move').map((e) => e.payload.move.type)).toEqual(played.moves);
    // Completed exactly once (the page may still log its own closing afterwards).
    expect(log.filter((e) => e.type === 'session_complete')).toHaveLength(1);
    // The chaos really happened: requests dropped both ways, answers lost after the study.server stored them, retries.
    expect(tally.dropped).toBeGreaterThan(0);
    expect(tally.lostAnswer).toBeGreaterThan(0);
    expect(tally.throttled).toBeGreaterThan(0);
    expect(resent).toBeGreaterThan(0);
  });
});
