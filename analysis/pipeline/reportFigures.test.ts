// The report's figures as issue 33 found them wanting, checked on the SVG the report embeds: Figure 2's labels clear
// of the y-axis and of each other, a 0-conflict puzzle's colour visible, integer axes without decimals, the threshold's
// red used by no mixture component, the paper's ρ told apart from this study's, and a one-participant pilot's mixed
// models replaced by a message instead of empty header rows.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { simulateToDir } from '../simulate/index.ts';
import { loadPuzzleSet, runAnalysis } from './index.ts';
import { COMPONENT_COLOURS, MIXTURE_COLOUR, THRESHOLD_RED, figure2Layout, labelWidth, puzzleMetricSpec } from './report.ts';
import { tempDir } from '../../tests/support/tempDirs.ts';

const configPath = join(import.meta.dirname, 'fixtures', 'study.json');

/** The SVG of one figure of the report. */
function figure(html: string, name: string): string {
  const at = html.indexOf(`<figure id="fig-${name}">`);
  expect(at, name).toBeGreaterThanOrEqual(0);
  return html.slice(at, html.indexOf('</figure>', at));
}
/** The elements of one mark group (vega's `<g class="mark-TYPE role-mark ...">`): each element's attributes and text. */
function marks(svg: string, type: string): { attrs: string; text: string }[] {
  const out: { attrs: string; text: string }[] = [];
  for (const g of svg.matchAll(new RegExp(`<g class="mark-${type} role-mark[^"]*"[^>]*>([\\s\\S]*?)</g>`, 'g')))
    for (const el of g[1].matchAll(/<(path|text|line)\b([^>]*?)(?:\/>|>([^<]*)<\/\1>)/g)) out.push({ attrs: el[2], text: el[3] ?? '' });
  return out;
}
const axisLabels = (svg: string) => [...svg.matchAll(/<g class="mark-text role-axis-label"[^>]*>([\s\S]*?)<\/g>/g)].flatMap((g) => [...g[1].matchAll(/>([^<]+)<\/text>/g)].map((m) => m[1]));
const translate = (attrs: string) => {
  const m = /transform="translate\(([-\d.e]+),([-\d.e]+)\)"/.exec(attrs);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
};
const reddish = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return r > 150 && g < 100 && b < 100;
};

describe('figure2Layout: labels beside their rules, right of the y-axis, clear of each other and of the bars', () => {
  it('crowded picks at 0 and at the right edge', () => {
    const values = [...Array.from({ length: 300 }, (_, i) => i % 17), 0, 0, 0, 1, 1, 2, 480, 500];
    const picks = [
      { id: 'n10x10-aaaaaaaaaaaa', value: 0 },
      { id: 'n10x10-bbbbbbbbbbbb', value: 0 },
      { id: 'n10x10-cccccccccccc', value: 1 },
      { id: 'n10x10-dddddddddddd', value: 8 },
      { id: 'n10x10-eeeeeeeeeeee', value: 480 },
      { id: 'n10x10-ffffffffffff', value: 500 },
    ];
    const layout = figure2Layout(values, picks);
    const boxes = layout.labels.map((l) => ({ ...l, x1: l.textx + labelWidth(l.label), y0: l.ypix - 6, y1: l.ypix + 6 }));
    for (const b of boxes) {
      expect(b.textx).toBeGreaterThanOrEqual(0);
      expect(b.x1).toBeLessThanOrEqual(600);
      // beside its rule: starting just right of it or ending just left of it
      expect(Math.abs(b.textx - b.xpix) <= 3.01 || Math.abs(b.x1 + 3 - b.xpix) <= 0.01 || b.textx === 2, b.label).toBe(true);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        const overlap = a.textx < b.x1 && b.textx < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
        expect(overlap, `${a.label} / ${b.label}`).toBe(false);
      }
    // The tallest bar ends below the lowest label row.
    const tallest = Math.max(...layout.bins.map((b) => b.count));
    const barTop = layout.height * (1 - tallest / layout.yMax);
    expect(barTop).toBeGreaterThanOrEqual(Math.max(...boxes.map((b) => b.y1)));
    // integer bins over integer conflicts, every candidate counted
    expect(layout.bins.every((b) => Number.isInteger(b.x0) && Number.isInteger(b.x1))).toBe(true);
    expect(layout.bins.reduce((s, b) => s + b.count, 0)).toBe(values.length);
  });
});

describe('figure2Layout bins', () => {
  it('about 40 bins of a nice whole step (1, 2, 5 x 10^k) whatever the range', () => {
    for (const max of [3, 40, 117, 1200, 98_765]) {
      const layout = figure2Layout([0, Math.round(max / 3), max], [{ id: 'p', value: max }]);
      const step = layout.bins[0].x1 - layout.bins[0].x0;
      expect(Number.isInteger(step), `${max}`).toBe(true);
      expect(String(step), `${max}`).toMatch(/^[125]0*$/);
      expect(layout.bins.length, `${max}`).toBeLessThanOrEqual(41);
      expect(layout.bins.length, `${max}`).toBeGreaterThanOrEqual(Math.min(4, max));
      expect(layout.bins.reduce((a, b) => a + b.count, 0)).toBe(3);
    }
  });
});

describe('report.html figures on simulated studies', () => {
  const dir = tempDir('nonolab-report-figures-');
  let html = '';
  let pilot = '';
  beforeAll(async () => {
    const study = loadStudyConfig(configPath);
    simulateToDir({ participants: 30, seed: 17, study }, join(dir, 'logs'));
    // Two study puzzles at 0 conflicts (zero-height bars), and a crowded candidate pool around them.
    const set = loadPuzzleSet(configPath);
    const measured = set.puzzles.map((p, i) => (i < 2 ? { ...p, metrics: { ...p.metrics, sat: { ...p.metrics!.sat!, conflicts: 0 } } } : p));
    writeFileSync(join(dir, 'puzzles.ndjson'), measured.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const pool = [...measured, ...Array.from({ length: 60 }, (_, i) => ({ ...measured[i % 6], id: `cand-${i}`, metrics: { ...measured[i % 6].metrics, sat: { ...measured[i % 6].metrics!.sat!, conflicts: i % 9 } } }))];
    writeFileSync(join(dir, 'candidates.ndjson'), pool.map((p) => JSON.stringify(p)).join('\n') + '\n');
    await runAnalysis({ logs: join(dir, 'logs'), puzzles: join(dir, 'puzzles.ndjson'), out: join(dir, 'out'), pauseThreshold: 'auto', candidates: join(dir, 'candidates.ndjson') });
    html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    simulateToDir({ participants: 1, seed: 5, study }, join(dir, 'pilot'));
    await runAnalysis({ logs: join(dir, 'pilot'), puzzles: configPath, out: join(dir, 'out-pilot'), pauseThreshold: 'auto' });
    pilot = readFileSync(join(dir, 'out-pilot', 'report.html'), 'utf8');
  }, 120_000);

  it("Figure 2: the picks' labels start right of the y-axis, inside the plot, and overlap neither each other", () => {
    const labels = marks(figure(html, 'figure2'), 'text').map((t) => ({ ...translate(t.attrs)!, text: t.text, size: Number(/font-size="([\d.]+)px"/.exec(t.attrs)?.[1] ?? 9) }));
    expect(labels.map((l) => l.text.replace(/ \(\d+\)$/, '')).sort()).toEqual(loadPuzzleSet(configPath).puzzles.map((p) => p.id).sort());
    const boxes = labels.map((l) => ({ ...l, x1: l.x + labelWidth(l.text, l.size), y0: l.y - l.size / 2, y1: l.y + l.size / 2 }));
    for (const b of boxes) {
      expect(b.x, b.text).toBeGreaterThan(0);
      expect(b.x1, b.text).toBeLessThanOrEqual(600);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        expect(a.x < b.x1 && b.x < a.x1 && a.y0 < b.y1 && b.y0 < a.y1, `${a.text} / ${b.text}`).toBe(false);
      }
  });

  it('a puzzle with 0 conflicts still shows its Bradley-Terry colour (a dot on each bar)', () => {
    const svg = figure(html, 'conflicts');
    const dots = marks(svg, 'symbol');
    expect(dots).toHaveLength(6);
    for (const d of dots) {
      const fill = /fill="(#[0-9a-f]{6}|rgb\([^)]*\))"/i.exec(d.attrs)?.[1];
      expect(fill, d.attrs).toBeDefined();
      expect(/opacity="0"/.test(d.attrs)).toBe(false);
    }
    // the two at 0 sit on the axis, and are drawn
    const ys = dots.map((d) => translate(d.attrs)!.y);
    expect(ys.filter((y) => y === Math.max(...ys))).toHaveLength(2);
  });

  it('integer metrics and counts get whole-number ticks (0, 5, 10, not 0.0, 5.0)', () => {
    for (const name of ['figure2', 'conflicts']) {
      const labels = axisLabels(figure(html, name)).filter((t) => /^[-\d.,]+$/.test(t));
      expect(labels.length, name).toBeGreaterThan(3);
      for (const t of labels) expect(t, name).toMatch(/^-?[\d,]+$/);
    }
    // the count axis of the expertise histogram too
    const expertise = axisLabels(figure(html, 'expertise'));
    expect(expertise.filter((t) => /^\d+$/.test(t)).length).toBeGreaterThan(1);
  });

  it('the gap figure: no mixture component is drawn in the threshold line\'s red', () => {
    const svg = figure(html, 'gaps');
    const strokes = marks(svg, 'line').map((l) => /stroke="(#[0-9a-f]{6})"/i.exec(l.attrs)?.[1]?.toLowerCase());
    expect(strokes.length).toBeGreaterThanOrEqual(4);
    for (const s of strokes) {
      expect(s).toBeDefined();
      expect([...COMPONENT_COLOURS, MIXTURE_COLOUR].map((c) => c.toLowerCase())).toContain(s);
      expect(reddish(s!), s).toBe(false);
    }
    expect(marks(svg, 'rule').map((r) => /stroke="(#[0-9a-f]{6})"/i.exec(r.attrs)?.[1])).toEqual([THRESHOLD_RED]);
  });

  it("says that the paper's ρ = −0.257 and the table's ρ are different estimates", () => {
    expect(html).toMatch(/That 0\.257 is the paper's own result[^<]*the ρ in the table below are this study's[^<]*a different estimate/);
  });

  it('a one-participant pilot: the mixed-model section says why there is no model, instead of empty tables', () => {
    const section = pilot.slice(pilot.indexOf('<h2>Linear mixed models</h2>'), pilot.indexOf('<h2>', pilot.indexOf('<h2>Linear mixed models</h2>') + 5));
    expect(section).toMatch(/id="lmm-none"[^>]*>No mixed model could be fitted: 1 participant\(s\) and \d+ puzzle\(s\) analysed/);
    expect(section).not.toContain('<table');
    // and a study with models keeps its tables
    const full = html.slice(html.indexOf('<h2>Linear mixed models</h2>'));
    expect(full.slice(0, full.indexOf('<h2>', 5))).toContain('<tbody><tr>');
  });
});

describe('the puzzle-metric figure', () => {
  it('compiles without a Vega-Lite warning on a six-puzzle Sudoku set that once gave one (layers agreeing on the order)', async () => {
    const vl = await import('vega-lite');
    // The values of study-config/sudoku.json's six puzzles after `simulate --seed 1` (minimal_conflicts, BT score).
    const values = [[1, -0.43], [7, -0.02], [14, -0.35], [59, 1.22], [6, -0.34], [12, -0.09]].map(([value, bt], i) => ({ puzzle: `s${i}`, value, bt }));
    const warnings: unknown[] = [];
    const logger = { level: () => logger, warn: (...a: unknown[]) => (warnings.push(a), logger), info: () => logger, debug: () => logger, error: (...a: unknown[]) => (warnings.push(a), logger) };
    const spec = puzzleMetricSpec('minimal_conflicts', values, 'none finite');
    vl.compile(spec, { logger: logger as never });
    expect(warnings).toEqual([]);
    // Ascending by value, ties in data order.
    expect((spec as { encoding: { x: { sort: string[] } } }).encoding.x.sort).toEqual(['s0', 's4', 's1', 's5', 's2', 's3']);
  });
});
