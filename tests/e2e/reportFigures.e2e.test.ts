// Issue 33: report.html rendered in real Chromium on three simulated studies (the pipeline's golden study, a study
// with every optional section and a candidate pool crowded at 0 conflicts, and a one-participant pilot): in no figure
// does text overlap other text, and every datum a figure draws has a visible mark (a bar of height 0 is not one).
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

interface FigureCheck {
  figure: string;
  overlaps: string[];
  invisible: string[];
  texts: number;
  data: number;
}

/** Three reports: their paths. */
async function reports(): Promise<Record<string, string>> {
  const dir = tempDir('nonolab-report-figures-e2e-');
  const study = loadStudyConfig(configPath);
  const out: Record<string, string> = {};
  // 1. the golden study of analysis/pipeline/golden.test.ts
  simulateToDir({ participants: 60, seed: 16, study }, join(dir, 'golden'));
  await runAnalysis({ logs: join(dir, 'golden'), puzzles: configPath, out: join(dir, 'out-golden'), pauseThreshold: 'auto' });
  out.golden = join(dir, 'out-golden', 'report.html');
  // 2. every optional section, two study puzzles at 0 conflicts and a pool crowded at the low end
  simulateToDir({ participants: 30, seed: 17, study }, join(dir, 'full'));
  const set = loadPuzzleSet(configPath);
  const measured = set.puzzles.map((p, i) => ({
    ...p,
    metrics: { ...p.metrics, sat: { ...p.metrics!.sat!, conflicts: i < 2 ? 0 : p.metrics!.sat!.conflicts }, sat_cadical: { decisions: p.metrics!.sat!.decisions + 1, propagations: p.metrics!.sat!.propagations, conflicts: p.metrics!.sat!.conflicts * 2, result: 'SAT' } },
  }));
  writeFileSync(join(dir, 'puzzles.ndjson'), measured.map((p) => JSON.stringify(p)).join('\n') + '\n');
  const pool = [...measured, ...Array.from({ length: 80 }, (_, i) => ({ ...measured[i % 6], id: `cand-${i}`, metrics: { ...measured[i % 6].metrics, sat: { ...measured[i % 6].metrics.sat, conflicts: (i * 7) % 23 } } }))];
  writeFileSync(join(dir, 'candidates.ndjson'), pool.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await runAnalysis({ logs: join(dir, 'full'), puzzles: join(dir, 'puzzles.ndjson'), out: join(dir, 'out-full'), pauseThreshold: 'auto', candidates: join(dir, 'candidates.ndjson'), skipsHardest: true, survival: true });
  out.full = join(dir, 'out-full', 'report.html');
  // 3. a one-participant pilot
  simulateToDir({ participants: 1, seed: 5, study }, join(dir, 'pilot'));
  await runAnalysis({ logs: join(dir, 'pilot'), puzzles: configPath, out: join(dir, 'out-pilot'), pauseThreshold: 'auto' });
  out.pilot = join(dir, 'out-pilot', 'report.html');
  return out;
}

describe('report.html figures in Chromium: no overlapping text, no invisible marks', () => {
  let browser: Browser;
  let paths: Record<string, string>;
  beforeAll(async () => {
    [browser, paths] = await Promise.all([launchBrowser(), reports()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  for (const name of ['golden', 'full', 'pilot']) {
    it(name, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`file://${paths[name]}`);
      const checks: FigureCheck[] = await page.evaluate(() =>
        [...document.querySelectorAll('figure')].map((fig) => {
          const boxes = [...fig.querySelectorAll('svg text')]
            .filter((t) => (t.textContent ?? '').trim() !== '' && getComputedStyle(t).opacity !== '0' && t.getAttribute('opacity') !== '0')
            .map((t) => ({ text: t.textContent as string, r: t.getBoundingClientRect() }))
            .filter((b) => b.r.width > 0 && b.r.height > 0);
          const overlaps: string[] = [];
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, b] = [boxes[i].r, boxes[j].r];
              // text boxes include the font's ascent and descent: overlapping by more than 1.5 px is overlapping ink
              const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (dx > 1.5 && dy > 1.5) overlaps.push(`"${boxes[i].text}" / "${boxes[j].text}"`);
            }
          // Every datum (a graphics symbol's aria-label) has a mark with some extent on the page; a bin with nothing
          // in it (count or density 0) is no datum.
          const byDatum = new Map<string, boolean>();
          for (const m of fig.querySelectorAll('svg [role="graphics-symbol"]')) {
            const label = m.getAttribute('aria-label') ?? '';
            if (/\b(count|density): 0(;|$)/.test(label)) continue;
            const r = m.getBoundingClientRect();
            const visible = (r.width > 0.5 || r.height > 0.5) && m.getAttribute('opacity') !== '0';
            byDatum.set(label, (byDatum.get(label) ?? false) || visible);
          }
          const invisible = [...byDatum].filter(([, v]) => !v).map(([k]) => k);
          return { figure: fig.id, overlaps, invisible, texts: boxes.length, data: byDatum.size };
        }),
      );
      await page.close();
      expect(checks.length).toBeGreaterThanOrEqual(name === 'pilot' ? 2 : 7);
      if (name === 'full') expect(checks.map((c) => c.figure)).toContain('fig-figure2');
      for (const c of checks) {
        expect(c.texts, c.figure).toBeGreaterThan(2);
        expect(c.data, c.figure).toBeGreaterThan(0);
        expect(c.overlaps, c.figure).toEqual([]);
        expect(c.invisible, c.figure).toEqual([]);
      }
    });
  }
});
