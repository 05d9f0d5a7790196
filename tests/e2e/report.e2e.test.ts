// report.html in real Chromium at 1280 px: every table and figure fits the page (no horizontal scrolling), whatever the analysis adds.
// No server, no store: the report is made from simulated logs on disk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { tempDir } from '../support/tempDirs.ts';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../../analysis/simulate/index.ts';
import { loadPuzzleSet, runAnalysis } from '../../analysis/pipeline/index.ts';

const configPath = join(import.meta.dirname, '../../analysis/pipeline/fixtures/study.json');

describe('report.html at 1280 px', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has no table or figure wider than the page, with every optional section on', async () => {
    const dir = tempDir('nonolab-report-');
    simulateToDir({ participants: 30, seed: 17, study: loadStudyConfig(configPath) }, join(dir, 'logs'));
    const set = loadPuzzleSet(configPath);
    // a candidate pool and a second solver's counters, so Figure 2 and the robustness table are drawn too
    const measured = set.puzzles.map((p) => ({ ...p, metrics: { ...p.metrics, sat_cadical: { decisions: p.metrics!.sat!.decisions + 1, propagations: p.metrics!.sat!.propagations, conflicts: p.metrics!.sat!.conflicts * 2, result: 'SAT' } } }));
    writeFileSync(join(dir, 'puzzles.ndjson'), measured.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const pool = [...measured, ...Array.from({ length: 40 }, (_, i) => ({ ...measured[i % 6], id: `cand-${i}` }))];
    writeFileSync(join(dir, 'candidates.ndjson'), pool.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const out = join(dir, 'out');
    const { summary } = await runAnalysis({ logs: join(dir, 'logs'), puzzles: join(dir, 'puzzles.ndjson'), out, pauseThreshold: 'auto', candidates: join(dir, 'candidates.ndjson'), skipsHardest: true, survival: true });
    expect(summary.figures).toContain('figure2');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`file://${join(out, 'report.html')}`);
    const sizes = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      tables: [...document.querySelectorAll('table')].map((t) => t.getBoundingClientRect().right),
      figures: [...document.querySelectorAll('svg')].map((t) => t.getBoundingClientRect().right),
      text: document.body.innerText,
    }));
    expect(sizes.client).toBe(1280);
    expect(sizes.scroll).toBeLessThanOrEqual(1280);
    expect(sizes.tables.length).toBeGreaterThan(10);
    for (const right of [...sizes.tables, ...sizes.figures]) expect(right).toBeLessThanOrEqual(1280);
    expect(sizes.text).not.toContain('NaN');
    await page.close();
  });
});
